/**
 * A channel's settings (Zulip's `#channels/ID/name/general|personal|subscribers`): its general settings
 * and permissions, the person's own settings for it, and its members. Each control appears only for those
 * the server lets change it (state/permissions.ts); a refusal shows beside the control. Loaded on first use.
 */
import { hrefOf } from "../../../nav/router";
import type { ChannelSection } from "../../../nav/hash";
import { channels, subscriptions } from "../../../state/store";
import { ChannelMark } from "../../bits";
import { General } from "./General";
import { Personal } from "./Personal";
import { Subscribers } from "./Subscribers";

const TABS: { id: ChannelSection; label: string }[] = [
  { id: "general", label: "General" },
  { id: "personal", label: "Personal" },
  { id: "subscribers", label: "Subscribers" },
];

export function ChannelSettings({ streamId, section }: { streamId: number; section: ChannelSection }) {
  const ch = channels.value[streamId];
  const sub = subscriptions.value[streamId];
  if (!ch) {
    return (
      <section class="channel-settings" aria-labelledby="channel-settings-title">
        <h1 id="channel-settings-title">Channel settings</h1>
        <p class="muted-text">This channel does not exist, or you cannot see it.</p>
        <a href={hrefOf({ kind: "channels", tab: "all" })}>Browse channels</a>
      </section>
    );
  }
  const tabs = TABS.filter((t) => t.id !== "personal" || sub);
  const current = tabs.some((t) => t.id === section) ? section : "general";
  return (
    <section class="channel-settings" aria-labelledby="channel-settings-title">
      <header class="channel-settings-head">
        <a class="settings-back-link" href={hrefOf({ kind: "channels", tab: "all" })}>
          All channels
        </a>
        <h1 id="channel-settings-title">
          <ChannelMark channel={ch} color={sub?.color} /> {ch.name}
          {ch.is_archived && <span class="browse-channel-tag">Archived</span>}
        </h1>
      </header>
      <nav class="tabs" aria-label="Channel settings">
        {tabs.map((t) => (
          <a key={t.id} class="tab" href={hrefOf({ kind: "channel-settings", stream_id: streamId, section: t.id })} aria-current={t.id === current ? "page" : undefined}>
            {t.label}
          </a>
        ))}
      </nav>
      <div class="channel-settings-body">
        {current === "general" && <General streamId={streamId} />}
        {current === "personal" && <Personal streamId={streamId} />}
        {current === "subscribers" && <Subscribers streamId={streamId} />}
      </div>
    </section>
  );
}
