/**
 * Browse channels (Zulip's `#channels/all`): every channel the person can see (the server sends only
 * those: a guest's own and web-public ones; private channels to their subscribers and administrators),
 * with its description, subscriber count and privacy, a filter, and a Subscribe / Unsubscribe button where
 * the person may. The list follows the store: joining or leaving comes back as events, and the sidebar
 * follows with it. Archived channels are only under their own tab (`#channels/archived`), read-only, with
 * Unarchive for their administrators. Loaded on first use.
 */
import { useState } from "preact/hooks";
import { subscribeTo, unarchiveChannel, unsubscribeFrom } from "../api/calls";
import { describeError } from "../api/http";
import type { ChannelsTab } from "../nav/hash";
import { hrefOf } from "../nav/router";
import { inBrowseTab } from "../state/archived";
import { canToggleSubscription, canUnarchive, creatableChannelKinds } from "../state/permissions";
import { channels, state, subscribers, subscriptions } from "../state/store";
import type { Channel } from "../state/types";
import { openCreateChannel } from "./channel-actions";
import { ChannelMark } from "./bits";
import { GearIcon, HashIcon, SearchIcon } from "./icons";
import { showNotice } from "./Notice";

const TAB_LABELS: Record<ChannelsTab, string> = { subscribed: "Subscribed", all: "All channels", notsubscribed: "Not subscribed", archived: "Archived" };
const TAB_ORDER: ChannelsTab[] = ["subscribed", "notsubscribed", "all", "archived"];

function privacyText(c: Channel): string {
  if (c.is_web_public) return "Web-public";
  return c.invite_only ? "Private" : "Public";
}

function SubscribeButton({ channel }: { channel: Channel }) {
  const [busy, setBusy] = useState(false);
  const subscribed = !!subscriptions.value[channel.stream_id];
  if (!canToggleSubscription(state.value!, channel.stream_id)) return null;
  const toggle = () => {
    setBusy(true);
    (subscribed ? unsubscribeFrom(channel.name) : subscribeTo(channel.name))
      .catch((e) => showNotice(`Could not ${subscribed ? "unsubscribe from" : "subscribe to"} #${channel.name}: ${describeError(e)}`))
      .finally(() => setBusy(false));
  };
  return (
    <button
      type="button"
      class={`button ${subscribed ? "subtle" : "primary"} subscribe-button`}
      disabled={busy}
      aria-label={`${subscribed ? "Unsubscribe from" : "Subscribe to"} #${channel.name}`}
      onClick={toggle}
    >
      {subscribed ? "Unsubscribe" : "Subscribe"}
    </button>
  );
}

function UnarchiveButton({ channel }: { channel: Channel }) {
  const [busy, setBusy] = useState(false);
  if (!canUnarchive(state.value!, channel.stream_id)) return null;
  const unarchive = () => {
    setBusy(true);
    unarchiveChannel(channel.stream_id)
      .catch((e) => showNotice(`Could not unarchive #${channel.name}: ${describeError(e)}`))
      .finally(() => setBusy(false));
  };
  return (
    <button type="button" class="button subtle unarchive-button" disabled={busy} aria-label={`Unarchive #${channel.name}`} onClick={unarchive}>
      Unarchive
    </button>
  );
}

function ChannelCard({ channel }: { channel: Channel }) {
  const sub = subscriptions.value[channel.stream_id];
  const count = subscribers.value[channel.stream_id]?.length ?? 0;
  const readable = !!sub || !channel.invite_only;
  const name = <span class="browse-channel-name">{channel.name}</span>;
  return (
    <li class={`browse-channel ${sub ? "subscribed" : ""}`} data-stream-id={channel.stream_id}>
      <div class="browse-channel-main">
        <span class="browse-channel-title">
          <ChannelMark channel={channel} color={sub?.color} />
          {readable ? <a href={hrefOf({ kind: "narrow", narrow: { kind: "channel", stream_id: channel.stream_id } })}>{name}</a> : name}
          {channel.is_archived && <span class="browse-channel-tag">Archived</span>}
        </span>
        {channel.description && <p class="browse-channel-description">{channel.description}</p>}
        <p class="browse-channel-facts">
          <span class="browse-channel-privacy">{privacyText(channel)}</span>
          <span aria-hidden="true"> · </span>
          <span class="browse-channel-count">{count === 1 ? "1 subscriber" : `${count} subscribers`}</span>
        </p>
      </div>
      <a class="icon-button channel-settings-link" href={hrefOf({ kind: "channel-settings", stream_id: channel.stream_id, section: "general" })} aria-label={`Settings for #${channel.name}`} title="Channel settings">
        <GearIcon />
      </a>
      {channel.is_archived ? <UnarchiveButton channel={channel} /> : <SubscribeButton channel={channel} />}
    </li>
  );
}

export function BrowseChannels({ tab }: { tab: ChannelsTab }) {
  const [filter, setFilter] = useState("");
  const needle = filter.trim().toLowerCase();
  const subs = subscriptions.value;
  const list = Object.values(channels.value)
    .filter((c) => inBrowseTab(tab, c, !!subs[c.stream_id]))
    .filter((c) => !needle || c.name.toLowerCase().includes(needle) || c.description.toLowerCase().includes(needle))
    .sort((a, b) => a.name.localeCompare(b.name));
  const mayCreate = creatableChannelKinds(state.value!).length > 0;
  return (
    <div class="overview browse-channels">
      <header class="view-header">
        <h1 class="view-title">
          <HashIcon /> Channels
        </h1>
        {mayCreate && (
          <button type="button" class="button primary create-channel-button" onClick={openCreateChannel}>
            Create a channel
          </button>
        )}
      </header>
      <div class="overview-scroller">
        <div class="browse-tools">
          <nav class="browse-tabs" aria-label="Which channels">
            {TAB_ORDER.map((t) => (
              <a key={t} href={hrefOf({ kind: "channels", tab: t })} class={`browse-tab ${t === tab ? "current" : ""}`} aria-current={t === tab ? "page" : undefined}>
                {TAB_LABELS[t]}
              </a>
            ))}
          </nav>
          <label class="browse-filter">
            <SearchIcon size={16} />
            <input type="search" class="browse-filter-input" aria-label="Filter channels" placeholder="Filter channels" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
          </label>
        </div>
        {list.length === 0 ? (
          <div class="overview-empty">
            <p class="overview-empty-title">{needle ? "No channels match your filter." : tab === "subscribed" ? "You are not subscribed to any channel yet." : tab === "archived" ? "No archived channels." : "No channels to show."}</p>
            {tab !== "all" && (
              <p>
                <a href={hrefOf({ kind: "channels", tab: "all" })}>See all channels</a>
              </p>
            )}
          </div>
        ) : (
          <ul class="browse-list" aria-label={TAB_LABELS[tab]}>
            {list.map((c) => (
              <ChannelCard key={c.stream_id} channel={c} />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
