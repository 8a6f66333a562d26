/** The left sidebar's views: Inbox, Recent conversations, Combined feed, Mentions, Starred. */
import type { JSX } from "preact";
import { view, hrefOf } from "../nav/router";
import type { View } from "../nav/hash";
import { counts, settings, starred } from "../state/store";
import { AtIcon, ClockIcon, FeedIcon, InboxIcon, StarIcon } from "./icons";
import { UnreadCount } from "./bits";

interface Entry {
  label: string;
  icon: JSX.Element;
  to: View;
  count: number;
  mention?: boolean;
  active(v: View): boolean;
}

const isNarrow = (v: View, kind: string) => v.kind === "narrow" && v.narrow.kind === kind;

export function ViewsNav() {
  const c = counts.value;
  const entries: Entry[] = [
    { label: "Inbox", icon: <InboxIcon />, to: { kind: "inbox" }, count: c.total, active: (v) => v.kind === "inbox" },
    { label: "Recent conversations", icon: <ClockIcon />, to: { kind: "recent" }, count: 0, active: (v) => v.kind === "recent" },
    { label: "Combined feed", icon: <FeedIcon />, to: { kind: "narrow", narrow: { kind: "feed" } }, count: c.total, active: (v) => isNarrow(v, "feed") },
    { label: "Mentions", icon: <AtIcon />, to: { kind: "narrow", narrow: { kind: "mentioned" } }, count: c.mentions, mention: true, active: (v) => isNarrow(v, "mentioned") },
    {
      label: "Starred messages",
      icon: <StarIcon />,
      to: { kind: "narrow", narrow: { kind: "starred" } },
      count: settings.value.starred_message_counts ? starred.value.length : 0,
      active: (v) => isNarrow(v, "starred"),
    },
  ];
  return (
    <ul class="nav-list views-nav">
      {entries.map((e) => {
        const current = e.active(view.value);
        return (
          <li key={e.label}>
            <a class={`nav-row ${current ? "current" : ""}`} href={hrefOf(e.to)} aria-current={current ? "page" : undefined}>
              {e.icon}
              <span class="nav-label">{e.label}</span>
              <UnreadCount count={e.count} what={e.label === "Starred messages" ? "starred" : "unread"} mention={e.mention} />
            </a>
          </li>
        );
      })}
    </ul>
  );
}
