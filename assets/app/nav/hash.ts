/**
 * Every view's URL, in Zulip's forms so links work across Zulip clients: `#inbox`, `#recent`, `#feed`,
 * `#narrow/channel/12-general/topic/lunch`, `#narrow/dm/5-Hamlet`, `#narrow/dm/5,9-group`,
 * `#narrow/is/starred`, `#narrow/is/mentioned`, with `/near/ID` for a message; `#drafts` and `#scheduled`
 * (Zulip's overlays of drafts and scheduled messages). Components are encoded
 * as Zulip's hash_util does (percent-encoding with "." for "%").
 */
import { dmKey, keyIds } from "../state/people";
import type { Narrow } from "../state/narrow";
import type { State } from "../state/types";

export type View = { kind: "inbox" } | { kind: "recent" } | { kind: "drafts" } | { kind: "scheduled" } | { kind: "narrow"; narrow: Narrow; near?: number };

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
  }
}

export function viewHash(state: State, v: View): string {
  if (v.kind === "inbox") return "#inbox";
  if (v.kind === "recent") return "#recent";
  if (v.kind === "drafts") return "#drafts";
  if (v.kind === "scheduled") return "#scheduled";
  return narrowHash(state, v.narrow) + (v.near ? `/near/${v.near}` : "");
}

/** The view a person starts on (their web_home_view setting). */
export function homeView(state: State): View {
  const home = state.settings.web_home_view;
  if (home === "recent_topics") return { kind: "recent" };
  if (home === "all_messages") return { kind: "narrow", narrow: { kind: "feed" } };
  return { kind: "inbox" };
}

function channelOperand(state: State, operand: string): number | null {
  const id = /^(\d+)(?:-|$)/.exec(operand)?.[1];
  if (id && state.channels[Number(id)]) return Number(id);
  const byName = Object.values(state.channels).find((c) => c.name.toLowerCase() === operand.toLowerCase());
  return byName?.stream_id ?? (id ? Number(id) : null);
}

function narrowFromTerms(state: State, terms: [string, string][]): { narrow: Narrow; near?: number } | null {
  let narrow: Narrow | null = null;
  let near: number | undefined;
  for (const [operator, operand] of terms) {
    switch (operator) {
      case "channel":
      case "stream": {
        const id = channelOperand(state, operand);
        if (id === null || narrow) return null;
        narrow = { kind: "channel", stream_id: id };
        break;
      }
      case "topic":
      case "subject":
        if (narrow?.kind !== "channel") return null;
        narrow = { kind: "topic", stream_id: narrow.stream_id, topic: operand };
        break;
      case "dm":
      case "pm-with": {
        const ids = /^([\d,]+)(?:-|$)/.exec(operand)?.[1];
        if (!ids || narrow) return null;
        narrow = { kind: "dm", key: dmKey(state.me, ids.split(",").filter(Boolean).map(Number)) };
        break;
      }
      case "is":
        if (narrow) return null;
        if (operand === "starred" || operand === "mentioned") narrow = { kind: operand };
        else if (operand === "dm" || operand === "private") narrow = { kind: "dms" };
        else return null;
        break;
      case "in":
        if (operand !== "home" || narrow) return null;
        narrow = { kind: "feed" };
        break;
      case "near":
      case "with":
        if (!/^\d+$/.test(operand)) return null;
        near = Number(operand);
        break;
      default:
        return null;
    }
  }
  return narrow ? { narrow, near } : null;
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
  const parts = h.split("/");
  // a trailing slash is dropped, but an empty last operand is the empty topic ("…/topic/")
  if (parts.length % 2 === 0 && parts[parts.length - 1] === "") parts.pop();
  if (parts[0] !== "narrow" || parts.length < 3 || parts.length % 2 === 0) return null;
  const terms: [string, string][] = [];
  try {
    for (let i = 1; i + 1 < parts.length; i += 2) terms.push([decodeHashComponent(parts[i]!), decodeHashComponent(parts[i + 1]!)]);
  } catch {
    return null;
  }
  const found = narrowFromTerms(state, terms);
  return found ? { kind: "narrow", ...found } : null;
}
