/**
 * The person's channels: pinned ones first, then by name, muted ones dimmed, each with its unread count
 * and a menu; the open channel shows its topics beneath it. Archived channels leave the list, as in
 * Zulip (Browse channels, Archived, still has them), unless one is open.
 */
import { hrefOf, view } from "../nav/router";
import { inSidebar } from "../state/archived";
import { creatableChannelKinds } from "../state/permissions";
import { counts, state, subscriptions } from "../state/store";
import type { Subscription } from "../state/types";
import { ChannelMark, UnreadCount } from "./bits";
import { openCreateChannel, PlusIcon } from "./channel-actions";
import { ChannelMenu } from "./menus";
import { TopicList } from "./TopicList";

const byName = (a: Subscription, b: Subscription) => a.name.localeCompare(b.name);

export function openChannelId(): number | null {
  const v = view.value;
  return v.kind === "narrow" && (v.narrow.kind === "channel" || v.narrow.kind === "topic") ? v.narrow.stream_id : null;
}

function ChannelRow({ sub }: { sub: Subscription }) {
  const open = openChannelId() === sub.stream_id;
  const v = view.value;
  const current = open && v.kind === "narrow" && v.narrow.kind === "channel";
  const count = counts.value.byChannel[sub.stream_id] ?? 0;
  return (
    <li class={`channel-item ${sub.is_muted ? "muted" : ""} ${sub.is_archived ? "archived" : ""}`}>
      <div class={`nav-row channel-row ${current ? "current" : ""} ${open ? "open" : ""}`}>
        <a class="row-link" href={hrefOf({ kind: "narrow", narrow: { kind: "channel", stream_id: sub.stream_id } })} aria-current={current ? "page" : undefined}>
          <ChannelMark channel={sub} color={sub.color} />
          <span class="nav-label">{sub.name}</span>
          <UnreadCount count={count} />
        </a>
        <ChannelMenu streamId={sub.stream_id} name={sub.name} />
      </div>
      {open && <TopicList streamId={sub.stream_id} />}
    </li>
  );
}

export function ChannelList() {
  const open = openChannelId();
  const subs = Object.values(subscriptions.value).filter((s) => inSidebar(s, open));
  const pinned = subs.filter((s) => s.pin_to_top).sort(byName);
  const rest = subs.filter((s) => !s.pin_to_top).sort(byName);
  const browse = hrefOf({ kind: "channels", tab: "all" });
  const mayCreate = creatableChannelKinds(state.value!).length > 0;
  return (
    <section class="sidebar-section" aria-labelledby="channels-heading">
      <div class="sidebar-heading-row">
        <h2 id="channels-heading" class="sidebar-heading">
          <a href={browse}>Channels</a>
        </h2>
        {mayCreate && (
          <button type="button" class="icon-button sidebar-add" aria-label="Create a channel" title="Create a channel" onClick={openCreateChannel}>
            <PlusIcon size={16} />
          </button>
        )}
      </div>
      {subs.length === 0 && (
        <p class="sidebar-empty channels-empty">
          You are not subscribed to any channel yet. <a href={browse}>Browse channels</a>
        </p>
      )}
      {pinned.length > 0 && (
        <ul class="nav-list pinned" aria-label="Pinned channels">
          {pinned.map((s) => <ChannelRow key={s.stream_id} sub={s} />)}
        </ul>
      )}
      <ul class="nav-list" aria-label={pinned.length ? "Other channels" : "Channels"}>
        {rest.map((s) => <ChannelRow key={s.stream_id} sub={s} />)}
      </ul>
      {subs.length > 0 && (
        <a class="sidebar-more" href={browse} aria-current={view.value.kind === "channels" ? "page" : undefined}>
          Browse channels
        </a>
      )}
    </section>
  );
}
