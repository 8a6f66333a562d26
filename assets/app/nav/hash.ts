/**
 * Every view's URL, in Zulip's forms so links work across Zulip clients: `#inbox`, `#recent`, `#feed`,
 * `#narrow/channel/12-general/topic/lunch`, `#narrow/dm/5-Hamlet`, `#narrow/dm/5,9-group`,
 * `#narrow/is/starred`, `#narrow/is/mentioned`, searches as their terms (`#narrow/sender/5-Hamlet/search/ghost`),
 * with `/near/ID` for a message; `#drafts` and `#scheduled` (Zulip's overlays of drafts and scheduled
 * messages), `#channels/all` (browse the organization's channels; also `/subscribed`, `/notsubscribed`,
 * `/archived`), `#channels/ID/name/general` (a channel's settings), `#groups/your` and `#groups/ID/name/general`
 * (user groups), `#settings/<section>` and `#organization/<section>` (the settings overlay, Zulip's section names).
 * Components are encoded as Zulip's hash_util does (percent-encoding with "." for "%").
 */
import { dmKey, keyIds } from "../state/people";
import type { Narrow, Term } from "../state/narrow";
import type { Message, State } from "../state/types";
import { canonicalOperator, channelId, narrowForTerms, OPERATORS, personId } from "../search/terms";

/**
 * Which channels "Browse channels" lists (Zulip's tabs: `#channels/all`, `#channels/subscribed`,
 * `#channels/notsubscribed`); `#channels/archived` holds the archived ones, which the others leave out.
 */
export type ChannelsTab = "all" | "subscribed" | "notsubscribed" | "archived";
export const CHANNELS_TABS: readonly ChannelsTab[] = ["all", "subscribed", "notsubscribed", "archived"];

/** The two halves of the settings overlay: the person's own settings and the organization's. */
export type SettingsArea = "personal" | "organization";
const AREA_HASH: Record<SettingsArea, string> = { personal: "settings", organization: "organization" };

/** The tabs of a channel's settings (`#channels/ID/name/general`) and of a user group's (`#groups/ID/name/general`). */
export type ChannelSection = "general" | "personal" | "subscribers";
export const CHANNEL_SECTIONS: readonly ChannelSection[] = ["general", "personal", "subscribers"];
export type GroupSection = "general" | "members" | "permissions";
export const GROUP_SECTIONS: readonly GroupSection[] = ["general", "members", "permissions"];
/** Which groups the groups list shows (`#groups/your`, `#groups/all`). */
export type GroupsTab = "your" | "all";

export type View =
  /** a channel's settings page */
  | { kind: "channel-settings"; stream_id: number; section: ChannelSection }
  /** user groups: the list (no group), or one group's settings */
  | { kind: "groups"; tab: GroupsTab; group_id?: number; section?: GroupSection }
  | { kind: "inbox" }
  | { kind: "recent" }
  | { kind: "drafts" }
  | { kind: "scheduled" }
  | { kind: "channels"; tab: ChannelsTab }
  /** a settings section ("" for the area's first), drawn over the view beneath it */
  | { kind: "settings"; area: SettingsArea; section: string }
  | { kind: "narrow"; narrow: Narrow; near?: number };

/** A view of the page itself (what the settings overlay is drawn over). */
export type PageView = Exclude<View, { kind: "settings" }>;
export type SettingsView = Extract<View, { kind: "settings" }>;

const REPLACEMENTS: Record<string, string> = { "%": ".", "(": ".28", ")": ".29", ".": ".2E" };
export const encodeHashComponent = (s: string) => encodeURIComponent(s).replace(/[%().]/g, (c) => REPLACEMENTS[c]!);
export const decodeHashComponent = (s: string) => decodeURIComponent(s.replace(/\./g, "%"));

/** `12-general-chat`: the id, and the name for people to read (unless encoding would bloat it). */
function channelSlug(id: number, name: string): string {
  const slug = `${id}-${name.replace(/ /g, "-")}`;
  const encoded = encodeHashComponent(slug);
  return encoded.length - slug.length > Math.max(slug.length, 10) || encoded.length > slug.length * 1.5 ? String(id) : encoded;
}

const nameSlug = (name: string) => encodeHashComponent(name.replace(/[ "%/<>`\p{Cc}\p{Cf}\p{Co}\p{Cn}]+/gu, "-"));

/** People in a link: `5-Hamlet` for one, `5,9-group` for several. */
function peopleSlug(state: State, ids: number[]): string {
  return `${ids.join(",")}-${ids.length > 1 ? "group" : nameSlug(state.users[ids[0]!]?.full_name ?? "unknown")}`;
}

function termHash(state: State, t: Term): string {
  let operand: string;
  if (t.operator === "channel") operand = channelSlug(Number(t.operand), state.channels[Number(t.operand)]?.name ?? "unknown");
  else if (t.operator === "sender" || t.operator === "dm" || t.operator === "dm-including") operand = peopleSlug(state, keyIds(t.operand));
  else operand = encodeHashComponent(t.operand);
  return `/${t.negated ? "-" : ""}${encodeHashComponent(t.operator)}/${operand}`;
}

function narrowHash(state: State, n: Narrow): string {
  switch (n.kind) {
    case "feed":
    case "all":
      return "#feed";
    case "mentioned":
    case "starred":
      return `#narrow/is/${n.kind}`;
    case "dms":
      return "#narrow/is/dm";
    case "channel":
      return `#narrow/channel/${channelSlug(n.stream_id, state.channels[n.stream_id]?.name ?? "unknown")}`;
    case "topic":
      return `${narrowHash(state, { kind: "channel", stream_id: n.stream_id })}/topic/${encodeHashComponent(n.topic)}`;
    case "dm": {
      const ids = keyIds(n.key);
      const suffix = ids.length > 1 ? "group" : nameSlug(state.users[ids[0]!]?.full_name ?? "unknown");
      return `#narrow/dm/${n.key}-${suffix}`;
    }
    case "search":
      return `#narrow${n.terms.map((t) => termHash(state, t)).join("")}`;
  }
}

/**
 * A link to one message that keeps working after it moves (Zulip's by_conversation_and_time_url):
 * its topic or conversation with `/near/ID`, absolute. A conversation names everyone in it.
 */
export function messageUrl(state: State, m: Pick<Message, "id" | "type" | "stream_id" | "subject" | "display_recipient">, origin: string): string {
  if (m.type === "stream") return `${origin}/${narrowHash(state, { kind: "topic", stream_id: m.stream_id!, topic: m.subject })}/near/${m.id}`;
  const ids = (m.display_recipient as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);
  return `${origin}/#narrow/dm/${ids.join(",")}-${ids.length >= 3 ? "group" : "dm"}/near/${m.id}`;
}

export function viewHash(state: State, v: View): string {
  if (v.kind === "inbox") return "#inbox";
  if (v.kind === "recent") return "#recent";
  if (v.kind === "drafts") return "#drafts";
  if (v.kind === "scheduled") return "#scheduled";
  if (v.kind === "channels") return `#channels/${v.tab}`;
  if (v.kind === "channel-settings") return `#channels/${v.stream_id}/${nameSlug(state.channels[v.stream_id]?.name ?? "channel")}/${v.section}`;
  if (v.kind === "groups") return v.group_id === undefined ? `#groups/${v.tab}` : `#groups/${v.group_id}/${nameSlug(state.groups[v.group_id]?.name ?? "group")}/${v.section ?? "general"}`;
  if (v.kind === "settings") return `#${AREA_HASH[v.area]}${v.section ? `/${v.section}` : ""}`;
  return narrowHash(state, v.narrow) + (v.near ? `/near/${v.near}` : "");
}

/** The view a person starts on (their web_home_view setting). */
export function homeView(state: State): PageView {
  const home = state.settings.web_home_view;
  if (home === "recent_topics") return { kind: "recent" };
  if (home === "all_messages") return { kind: "narrow", narrow: { kind: "feed" } };
  return { kind: "inbox" };
}

/** A term of a link, its operand decoded (a channel slug to its id, people to their ids), or null. */
function hashTerm(state: State, rawOperator: string, operand: string): Term | { near: number } | null {
  const negated = rawOperator.startsWith("-");
  const operator = canonicalOperator(negated ? rawOperator.slice(1) : rawOperator);
  if (!(OPERATORS as readonly string[]).includes(operator) && operator !== "search") return null;
  if (operand === "" && operator !== "topic") return null;
  const term = (value: string): Term => (negated ? { operator, operand: value, negated } : { operator, operand: value });
  switch (operator) {
    case "channel": {
      // the id first (a slug names the channel as it was called then), then the name
      const id = /^(\d+)(?:-|$)/.exec(operand)?.[1];
      const found = id !== undefined && state.channels[Number(id)] ? Number(id) : (channelId(state, operand) ?? (id !== undefined ? Number(id) : null));
      return found === null ? null : term(String(found));
    }
    case "dm":
    case "sender":
    case "dm-including": {
      const ids = /^([\d,]+)(?:-|$)/.exec(operand)?.[1]?.split(",").filter(Boolean).map(Number);
      const found = ids?.length ? ids : operand.split(",").map((p) => personId(state, p));
      if (!found.length || found.some((id) => id === null)) return null;
      if (operator === "dm") return term(dmKey(state.me, found as number[]));
      return found.length === 1 ? term(String(found[0])) : null;
    }
    case "near":
    case "with":
      return /^\d+$/.test(operand) && !negated ? { near: Number(operand) } : null;
    case "in":
      return operand === "home" && !negated ? term(operand) : null;
    case "is":
    case "has": {
      const value = operand.toLowerCase();
      return term(value === "private" ? "dm" : value);
    }
    default:
      return term(operand);
  }
}

/** The view a URL's hash names, or null for one the app does not show. */
export function parseHash(state: State, hash: string): View | null {
  const h = hash.replace(/^#/, "");
  const simple = h.replace(/\/$/, "");
  if (simple === "") return homeView(state);
  if (simple === "inbox") return { kind: "inbox" };
  if (simple === "recent" || simple === "recent_topics") return { kind: "recent" };
  if (simple === "drafts") return { kind: "drafts" };
  if (simple === "scheduled") return { kind: "scheduled" };
  if (simple === "feed" || simple === "all_messages") return { kind: "narrow", narrow: { kind: "feed" } };
  const channels = /^(?:channels|streams)(?:\/(all|subscribed|notsubscribed|archived))?$/.exec(simple);
  if (channels) return { kind: "channels", tab: (channels[1] as ChannelsTab | undefined) ?? "subscribed" };
  const channelSettings = /^(?:channels|streams)\/(\d+)(?:\/[^/]*(?:\/(general|personal|subscribers))?)?$/.exec(simple);
  if (channelSettings) return { kind: "channel-settings", stream_id: Number(channelSettings[1]), section: (channelSettings[2] as ChannelSection | undefined) ?? "general" };
  const groupList = /^groups(?:\/(your|all))?$/.exec(simple);
  if (groupList) return { kind: "groups", tab: (groupList[1] as GroupsTab | undefined) ?? "your" };
  const group = /^groups\/(\d+)(?:\/[^/]*(?:\/(general|members|permissions))?)?$/.exec(simple);
  if (group) return { kind: "groups", tab: "all", group_id: Number(group[1]), section: (group[2] as GroupSection | undefined) ?? "general" };
  const settings = /^(settings|organization)(?:\/([a-z0-9-]+)(?:\/.*)?)?$/.exec(simple);
  if (settings) return { kind: "settings", area: settings[1] === "settings" ? "personal" : "organization", section: settings[2] ?? "" };
  const parts = h.split("/");
  // a trailing slash is dropped, but an empty last operand is the empty topic ("…/topic/")
  if (parts.length % 2 === 0 && parts[parts.length - 1] === "") parts.pop();
  if (parts[0] !== "narrow" || parts.length < 3 || parts.length % 2 === 0) return null;
  const terms: Term[] = [];
  let near: number | undefined;
  try {
    for (let i = 1; i + 1 < parts.length; i += 2) {
      const t = hashTerm(state, decodeHashComponent(parts[i]!), decodeHashComponent(parts[i + 1]!));
      if (!t) return null;
      if ("near" in t) near = t.near;
      else terms.push(t);
    }
  } catch {
    return null;
  }
  if (!terms.length) return null;
  const narrow = narrowForTerms(terms);
  if (!narrow) return null;
  return near === undefined ? { kind: "narrow", narrow } : { kind: "narrow", narrow, near };
}

/** Nothing known yet: what parseHash reads of the state before /register has answered. */
const BEFORE_REGISTER = { me: -1, channels: {}, users: {}, settings: {} } as unknown as State;
const READABLE_BEFORE_REGISTER = new Set<Narrow["kind"]>(["channel", "topic", "feed", "all", "mentioned", "starred", "dms"]);

/**
 * The view a hash names, read before /register has answered (boot.tsx fetches its messages meanwhile):
 * only views that need no channel names, people or settings (a channel or topic by its id, the feed,
 * mentions, starred, direct messages, Recent conversations); null for the others.
 */
export function viewBeforeRegister(hash: string): View | null {
  const h = hash.replace(/^#/, "");
  if (h === "") return null; // the home view is a setting
  const v = parseHash(BEFORE_REGISTER, hash);
  if (v?.kind === "recent") return v;
  return v?.kind === "narrow" && READABLE_BEFORE_REGISTER.has(v.narrow.kind) ? v : null;
}
