/** What the app fetched outside /register (messages of a view, a channel's topics), put into the state. */
import { matches, narrowKey, type Narrow } from "./narrow";
import { pruneMessages } from "./reduce/lists";
import type { Highlight, Message, MessageList, State } from "./types";

/* eslint-disable @typescript-eslint/no-explicit-any */
export interface MessagesAnswer {
  messages: Message[];
  found_oldest: boolean;
  found_newest: boolean;
}

/**
 * A GET /messages answer for a view: "replace" starts the view's list afresh (opening it), "older" and
 * "newer" extend it at either end (scrolling).
 */
export function messagesFetched(state: State, narrow: Narrow, answer: MessagesAnswer, how: "replace" | "older" | "newer"): State {
  const key = narrowKey(narrow);
  // a page scrolled to arrives after its view's list was dropped (the view was opened afresh elsewhere
  // meanwhile): it extends nothing, and must not stand in for the fetch that opens the view
  if (how !== "replace" && !state.lists[key]) return state;
  const messages = { ...state.messages };
  // a search's highlighted forms belong to its list, not to the message other views show
  let found: Record<number, Highlight> | undefined;
  for (const raw of answer.messages) {
    const { match_content, match_subject, ...m } = raw as Message & { match_content?: string; match_subject?: string };
    messages[m.id] = { ...m, reactions: m.reactions ?? [], submessages: m.submessages ?? [] };
    if (match_content !== undefined || match_subject !== undefined) (found ??= {})[m.id] = { content: match_content ?? m.content, subject: match_subject ?? "" };
  }
  const got = answer.messages.map((m) => m.id);
  const cur = state.lists[key];
  let list: MessageList;
  if (how === "replace" || !cur) {
    // a message that arrived (as an event) while this was fetched is newer than the answer: it belongs too
    const last = got[got.length - 1] ?? -Infinity;
    const fetched = new Set(got);
    const arrived = answer.found_newest
      ? Object.values(state.messages)
          .filter((m) => m.id > last && !fetched.has(m.id) && matches(state, narrow, m))
          .map((m) => m.id)
          .sort((a, b) => a - b)
      : [];
    list = { narrow, ids: [...got, ...arrived], found_oldest: answer.found_oldest, found_newest: answer.found_newest };
  } else if (how === "older") {
    const first = cur.ids[0] ?? Infinity;
    list = { ...cur, ids: [...got.filter((id) => id < first), ...cur.ids], found_oldest: answer.found_oldest };
  } else {
    const last = cur.ids[cur.ids.length - 1] ?? -Infinity;
    list = { ...cur, ids: [...cur.ids, ...got.filter((id) => id > last)], found_newest: answer.found_newest };
  }
  if (found) list.highlights = { ...(how === "replace" ? {} : cur?.highlights), ...found };
  return { ...state, messages, lists: { ...state.lists, [key]: list } };
}

/** Views the person left are forgotten (their messages too, unless another view holds them). */
export function keepLists(state: State, keys: readonly string[]): State {
  const lists: State["lists"] = {};
  for (const k of keys) if (state.lists[k]) lists[k] = state.lists[k]!;
  const next = { ...state, lists };
  return { ...next, messages: pruneMessages(next) };
}

export function topicsFetched(state: State, streamId: number, topics: { name: string; max_id: number }[]): State {
  const sorted = [...topics].sort((a, b) => b.max_id - a.max_id);
  return { ...state, topics: { ...state.topics, [streamId]: sorted } };
}
