/** The left sidebar's views: Inbox, Recent conversations, Combined feed, Mentions, Starred, Drafts, Scheduled. */
import type { JSX } from "preact";
import { view, hrefOf } from "../nav/router";
import type { View } from "../nav/hash";
import { counts, scheduled, settings, starred } from "../state/store";
import { drafts } from "../compose/drafts";
import { AtIcon, ClockIcon, FeedIcon, InboxIcon, StarIcon } from "./icons";
import { CalendarIcon, PencilIcon } from "./icons-writing";
import { UnreadCount } from "./bits";

interface Entry {
  label: string;
  icon: JSX.Element;
  to: View;
  count: number;
  mention?: boolean;
  /** what the count counts, for screen readers ("unread" unless said) */
  what?: string;
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
      what: "starred",
      active: (v) => isNarrow(v, "starred"),
    },
    { label: "Drafts", icon: <PencilIcon />, to: { kind: "drafts" }, count: drafts.value.length, what: "drafts", active: (v) => v.kind === "drafts" },
  ];
  const waiting = Object.keys(scheduled.value).length;
  // Zulip shows scheduled messages in the sidebar only when there are some
  if (waiting) entries.push({ label: "Scheduled messages", icon: <CalendarIcon />, to: { kind: "scheduled" }, count: waiting, what: "scheduled", active: (v) => v.kind === "scheduled" });
  return (
    <ul class="nav-list views-nav">
      {entries.map((e) => {
        const current = e.active(view.value);
        return (
          <li key={e.label}>
            <a class={`nav-row ${current ? "current" : ""}`} href={hrefOf(e.to)} aria-current={current ? "page" : undefined}>
              {e.icon}
              <span class="nav-label">{e.label}</span>
              <UnreadCount count={e.count} what={e.what ?? "unread"} mention={e.mention} />
            </a>
          </li>
        );
      })}
    </ul>
  );
}
