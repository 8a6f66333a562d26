import { realmOf, type App } from "../../app";
import { canAccessHistory, hasContentAccess } from "../../domain/channel-permissions";
import { highlightHtml, highlightTopic } from "../../domain/highlight";
import { badNarrow, operandIds, type NarrowTerm } from "../../domain/narrow";
import { isGuest } from "../../domain/roles";
import { displayTopic } from "../../domain/topic";
import { htmlDiff } from "../../domain/html-diff";
import { editHistoryPolicy, visibleEditHistory } from "../../domain/edit-history";
import { badRequest } from "../../errors";
import { FLAG } from "../../domain/flags";
import { listMessagesByIds, type MessageRow } from "../../store/messages";
import { filterIds, findRange, firstUnread, type FoundRow, type ResolvedNarrow, type Term } from "../../store/narrow";
import { listReactions, type ReactionRow } from "../../store/reactions";
import { listSubmessages, type SubmessageRow } from "../../store/submessages";
import { mayHaveSubmessages } from "../../domain/widgets";
import { listSubscribedStreamIds } from "../../store/subscriptions";
import type { UserRow } from "../../store/users";
import { accessibleUserIds } from "../user-access";
import { accessMessage } from "./access";
import { loadDirectory, type Directory } from "./directory";
import { fetchedMessage, loadTopicLinkifiers, type FormatOptions } from "./format";
import { emptyTopicName } from "./render";
import { ensureSearchIndexed } from "./search-index";
import { contentTerm } from "./narrow-terms";
import { accessWebPublicMessage, resolveSpectatorNarrow } from "./spectator";

export const MAX_MESSAGES_PER_FETCH = 5000;
/** Zulip's LARGER_THAN_MAX_MESSAGE_ID: the `newest` anchor. */
export const NEWEST_ANCHOR = 10_000_000_000_000_000;

export type Anchor = number | "newest" | "oldest" | "first_unread";

/** Zulip's parse_anchor_value. */
export function parseAnchor(raw: string | undefined): Anchor {
  if (raw === undefined) throw badRequest("Missing 'anchor' argument.");
  if (raw === "newest" || raw === "oldest" || raw === "first_unread") return raw;
  if (!/^-?\d+$/.test(raw.trim())) throw badRequest("Invalid anchor");
  return Math.max(0, Math.min(Number(raw.trim()), NEWEST_ANCHOR));
}

interface Resolved {
  narrow: ResolvedNarrow;
  searchWords: string[] | null;
}

/**
 * Resolves a parsed narrow for `me`: names to ids, access to channel history (Zulip's
 * ok_to_include_history), the `with` operator's conversation. Unknown names are BAD_NARROW.
 */
export async function resolveNarrow(app: App, d: Directory, me: UserRow, input: NarrowTerm[], opts: { personalOnly?: boolean } = {}): Promise<Resolved> {
  let terms = input.filter((t) => t.operator !== "near");
  const withTerm = terms.find((t) => t.operator === "with");
  if (withTerm) {
    terms = terms.filter((t) => t.operator !== "with");
    const id = Number(withTerm.operand);
    const target = Number.isInteger(id) ? await accessMessage(app, d, me, id).catch(() => null) : null;
    if (target) {
      terms = terms.filter((t) => !["channel", "topic", "dm"].includes(t.operator));
      if (target.row.stream_id !== null) {
        terms.push({ operator: "channel", operand: target.row.stream_id, negated: false });
        terms.push({ operator: "topic", operand: target.row.topic, negated: false });
      } else {
        terms.push({ operator: "dm", operand: target.row.dm_key!.split(",").map(Number), negated: false });
      }
    }
  }
  const out: Term[] = [];
  let searchWords: string[] | null = null;
  let historyStreams: number[] | null = null;
  let userProperty = false;
  const subscribed = new Set(await listSubscribedStreamIds(app.db, me.id));
  const accessOf = (streamId: number) => {
    const s = d.streams.get(streamId)!;
    return { user: me, channel: s, subscribed: subscribed.has(streamId), inGroup: (g: number) => app.groups.isMember(g, me.id) };
  };
  for (const t of terms) {
    const neg = t.negated;
    const o = t.operand;
    switch (t.operator) {
      case "channel": {
        const stream = typeof o === "number" ? d.streams.get(o) : d.streamByName(String(o));
        if (!stream || stream.realm_id !== realmOf(app).id) throw badNarrow(`unknown channel ${o}`);
        out.push({ k: "streams", ids: [stream.id], neg });
        if (!neg) {
          const a = accessOf(stream.id);
          historyStreams = hasContentAccess(a) && canAccessHistory(a) ? [stream.id] : null;
        }
        break;
      }
      case "channels": {
        if (o !== "public" && o !== "web-public") throw badNarrow(`unknown channels operand ${o}`);
        const ids = [...d.streams.values()]
          .filter((s) => s.realm_id === realmOf(app).id && (o === "public" ? !s.invite_only || s.is_web_public : s.is_web_public))
          .map((s) => s.id);
        out.push({ k: "streams", ids, neg });
        if (!neg && (o === "web-public" || !isGuest(me.role))) historyStreams = ids;
        break;
      }
      case "sender": {
        const u = typeof o === "number" ? d.users.get(o) : String(o) === "me" ? d.users.get(me.id) : d.userByEmail(String(o));
        if (!u) throw badNarrow(`unknown user ${o}`);
        out.push({ k: "sender", id: u.id, neg });
        break;
      }
      case "dm": {
        const ids = operandIds(o) ?? String(o).split(",").map((e) => e.trim()).filter(Boolean).map((email) => {
          const u = d.userByEmail(email);
          if (!u) throw badNarrow(`unknown user in ${o}`);
          return u.id;
        });
        for (const id of ids) if (!d.users.has(id)) throw badNarrow(`unknown user in ${o}`);
        out.push({ k: "dm", key: [...new Set([...ids, me.id])].sort((a, b) => a - b).join(","), neg });
        break;
      }
      case "dm-including": {
        const u = typeof o === "number" ? d.users.get(o) : d.userByEmail(String(o));
        if (!u) throw badNarrow(`unknown user ${o}`);
        out.push({ k: "dm_including", ids: [u.id], neg });
        break;
      }
      case "is": {
        const what = String(o);
        if (what !== "resolved" && what !== "followed") userProperty = true;
        if (what === "dm") out.push({ k: "is_dm", neg });
        else if (what === "starred") out.push({ k: "flag", mask: 2, neg });
        else if (what === "unread") out.push({ k: "unread", neg });
        else if (what === "mentioned") out.push({ k: "flag", mask: 8 | 16 | 32, neg });
        else if (what === "alerted") out.push({ k: "flag", mask: 64, neg });
        else if (what === "resolved") out.push({ k: "resolved", neg });
        else if (what === "muted") out.push({ k: "muted", neg });
        else if (what === "followed") out.push({ k: "followed", neg });
        else throw badNarrow(`unknown 'is' operand ${what}`);
        break;
      }
      case "in": {
        if (o === "home") out.push({ k: "muted", neg: !neg });
        else if (o !== "all") throw badNarrow(`unknown 'in' operand ${o}`);
        break;
      }
      default: {
        const c = contentTerm(app, t);
        if (!c) throw badNarrow(`unknown operator ${t.operator}`);
        out.push(c.term);
        if (c.searchWords) searchWords = [...(searchWords ?? []), ...c.searchWords];
      }
    }
  }
  if (userProperty || opts.personalOnly) historyStreams = null;
  // the index trails sends by a moment: a search also scans the rows not indexed yet
  if (out.some((t) => t.k === "search")) await ensureSearchIndexed(app, out);
  return { narrow: { userId: me.id, terms: out, historyStreams }, searchWords };
}

export interface GetMessagesInput {
  anchor?: string;
  numBefore?: number;
  numAfter?: number;
  includeAnchor: boolean;
  useFirstUnreadAnchor: boolean;
  narrow: NarrowTerm[];
  messageIds?: number[];
  format: FormatOptions;
}

/** Rows by their message id, each message's in the order given. */
function byMessage<T extends { message_id: number }>(rows: T[]): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    const list = out.get(r.message_id);
    if (list) list.push(r);
    else out.set(r.message_id, [r]);
  }
  return out;
}

/** The submessages of those messages that may have some (widgets): no query when none is a widget. */
const listWidgetSubmessages = (app: App, rows: MessageRow[]) => listSubmessages(app.db, rows.filter((r) => mayHaveSubmessages(r.content)).map((r) => r.id));

/**
 * Formats found rows (one query for the rows, one for all their reactions, one for the submessages
 * of the widgets among them) with the viewer's flags and search highlights.
 */
export async function formatFound(app: App, d: Directory, me: UserRow | null, found: FoundRow[], format: FormatOptions, searchWords: string[] | null) {
  const ids = found.map((f) => f.id);
  const [[rows, submessages], reactions, accessibleUsers] = await Promise.all([
    listMessagesByIds(app.db, ids).then(async (rows) => [rows, await listWidgetSubmessages(app, rows)] as const),
    listReactions(app.db, ids),
    me ? accessibleUserIds(app, me) : null, // spectators see every sender, as Zulip's
    loadTopicLinkifiers(app),
  ]);
  if (accessibleUsers) format = { ...format, accessibleUsers };
  const byId = new Map<number, MessageRow>(rows.map((r) => [r.id, r]));
  const reactionsOf = byMessage<ReactionRow>(reactions);
  const submessagesOf = byMessage<SubmessageRow>(submessages);
  const out: Record<string, unknown>[] = [];
  for (const f of found) {
    const row = byId.get(f.id);
    if (!row) continue;
    const attached = { reactions: reactionsOf.get(f.id) ?? [], submessages: submessagesOf.get(f.id) ?? [] };
    // a spectator has read everything there is for them (Zulip's flags ["read"])
    const m = fetchedMessage(app, d, row, attached, me?.id ?? 0, me ? f.flags : FLAG.read, format);
    if (searchWords) {
      m.match_content = highlightHtml(row.rendered_content, searchWords);
      m.match_subject = highlightTopic(displayTopic(row.topic, emptyTopicName(app), format.allowEmptyTopicName), searchWords);
    }
    out.push(m);
  }
  return out;
}

/** GET /messages for a user, or (me null) for a spectator reading web-public channels. */
export async function getMessages(app: App, me: UserRow | null, input: GetMessagesInput) {
  const d = await loadDirectory(app);
  const { narrow, searchWords } = me ? await resolveNarrow(app, d, me, input.narrow) : await resolveSpectatorNarrow(app, d, input.narrow);
  if (input.messageIds !== undefined) {
    const found = await filterIds(app.db, narrow, [...new Set(input.messageIds)]);
    const messages = await formatFound(app, d, me, found, input.format, searchWords);
    return { messages, found_anchor: false, found_oldest: false, found_newest: false, history_limited: false };
  }
  const numBefore = input.numBefore!;
  const numAfter = input.numAfter!;
  if (numBefore + numAfter > MAX_MESSAGES_PER_FETCH) throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  // Zulip's parse_anchor_value: use_first_unread_anchor wins over any anchor (zulip-terminal sends anchor=0 with it)
  let spec: Anchor = input.useFirstUnreadAnchor ? "first_unread" : parseAnchor(input.anchor);
  let anchor: number;
  // nothing is unread for a spectator: first_unread is the newest message
  if (spec === "first_unread") anchor = (me && (await firstUnread(app.db, narrow))) || NEWEST_ANCHOR;
  else if (spec === "newest") anchor = NEWEST_ANCHOR;
  else if (spec === "oldest") anchor = 0;
  else anchor = spec;
  const anchoredLeft = anchor === 0;
  const anchoredRight = anchor >= NEWEST_ANCHOR;
  const [before, anchorRows, after] = await Promise.all([
    numBefore > 0 && !anchoredLeft ? findRange(app.db, narrow, "before", anchor, false, numBefore) : Promise.resolve([]),
    input.includeAnchor && !anchoredLeft && !anchoredRight ? filterIds(app.db, narrow, [anchor]) : Promise.resolve([]),
    numAfter > 0 && !anchoredRight ? findRange(app.db, narrow, "after", anchor, false, numAfter) : Promise.resolve([]),
  ]);
  const found = [...before, ...anchorRows, ...after];
  const messages = await formatFound(app, d, me, found, input.format, searchWords);
  return {
    messages,
    anchor,
    found_anchor: anchorRows.length === 1,
    found_oldest: anchoredLeft || before.length < numBefore,
    found_newest: anchoredRight || after.length < numAfter,
    history_limited: false,
  };
}

/** GET /messages/{message_id}, for a user or (me null) a spectator reading a web-public channel. */
export async function getMessage(app: App, me: UserRow | null, messageId: number, format: FormatOptions) {
  const d = await loadDirectory(app);
  const { row, flags } = me ? await accessMessage(app, d, me, messageId) : await accessWebPublicMessage(app, d, messageId);
  const [reactions, submessages, accessibleUsers] = await Promise.all([
    listReactions(app.db, [row.id]),
    listWidgetSubmessages(app, [row]),
    me ? accessibleUserIds(app, me) : null,
    loadTopicLinkifiers(app),
  ]);
  return { raw_content: row.content, message: fetchedMessage(app, d, row, { reactions, submessages }, me?.id ?? 0, flags, { ...format, accessibleUsers }) };
}

/** GET /messages/matches_narrow: which of the user's messages match, with search highlights. */
export async function messagesMatchingNarrow(app: App, me: UserRow, msgIds: number[], narrowTerms: NarrowTerm[]) {
  const d = await loadDirectory(app);
  const { narrow, searchWords } = await resolveNarrow(app, d, me, narrowTerms, { personalOnly: true });
  const found = await filterIds(app.db, narrow, [...new Set(msgIds)]);
  const rows = await listMessagesByIds(app.db, found.map((f) => f.id));
  const messages: Record<string, { match_content: string; match_subject: string }> = {};
  const emptyName = emptyTopicName(app);
  for (const row of rows) {
    const topic = displayTopic(row.topic, emptyName, false);
    messages[row.id] = {
      match_content: searchWords ? highlightHtml(row.rendered_content, searchWords) : row.rendered_content,
      match_subject: searchWords ? highlightTopic(topic, searchWords) : highlightTopic(topic, []),
    };
  }
  return { messages };
}

/** GET /messages/{message_id}/history: snapshots oldest first, rebuilt from the newest-first edit history. */
export async function getMessageHistory(app: App, me: UserRow, messageId: number, allowEmptyTopicName: boolean) {
  const policy = editHistoryPolicy(realmOf(app).settings);
  if (policy === "none") throw badRequest("Message edit history is disabled in this organization");
  const d = await loadDirectory(app);
  const { row } = await accessMessage(app, d, me, messageId);
  const emptyName = emptyTopicName(app);
  const show = (t: string) => displayTopic(t, emptyName, allowEmptyTopicName);
  // with "moves", content edits are not shown: the snapshots differ only by their moves
  const entries = visibleEditHistory(row.edit_history ? (JSON.parse(row.edit_history) as Record<string, any>[]) : [], policy);
  let topic = row.topic;
  let content = row.content;
  let rendered = row.rendered_content;
  const snapshots: Record<string, unknown>[] = [];
  for (const e of entries) {
    const snap: Record<string, unknown> = { ...e, topic: show(topic), content, rendered_content: rendered };
    if (typeof e.prev_topic === "string") {
      snap.prev_topic = show(e.prev_topic);
      topic = e.prev_topic;
    }
    delete snap.prev_stream_name;
    if (typeof e.prev_content === "string") {
      snap.content_html_diff = htmlDiff(e.prev_rendered_content ?? "", rendered);
      content = e.prev_content;
      rendered = e.prev_rendered_content;
    }
    snapshots.push(snap);
  }
  snapshots.push({ topic: show(topic), content, rendered_content: rendered, timestamp: Math.floor(row.date_sent), user_id: row.sender_id });
  return { message_history: snapshots.reverse() };
}
