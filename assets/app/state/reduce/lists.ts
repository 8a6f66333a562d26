/** Keeping the views' message lists right as messages arrive, move and go. */
import { isLocal, matches } from "../narrow";
import type { Message, MessageList, State } from "../types";
import { addSorted, removeIds } from "./records";

/** Whether `id` falls inside the stretch a list holds (a list reaching the newest takes any newer id). */
function covers(list: MessageList, id: number): boolean {
  const first = list.ids[0];
  const last = list.ids[list.ids.length - 1];
  if (first === undefined || last === undefined) return list.found_oldest && list.found_newest;
  return (list.found_oldest || id >= first) && (list.found_newest || id <= last);
}

/**
 * The lists after `changed` messages took their current form: each one leaves the lists it no longer
 * matches and joins those it now matches where the list holds its place.
 */
export function placeInLists(state: State, changed: readonly Message[]): State["lists"] {
  let lists = state.lists;
  for (const [key, list] of Object.entries(state.lists)) {
    // a search the app cannot judge keeps what the server found
    if (!isLocal(list.narrow)) continue;
    let ids = list.ids;
    for (const m of changed) {
      const belongs = matches(state, list.narrow, m);
      if (belongs && covers(list, m.id)) ids = addSorted(ids, m.id);
      else if (!belongs && ids.includes(m.id)) ids = ids.filter((id) => id !== m.id);
    }
    if (ids !== list.ids) lists = { ...lists, [key]: { ...list, ids } };
  }
  return lists;
}

export function dropFromLists(lists: State["lists"], gone: ReadonlySet<number>): State["lists"] {
  let out = lists;
  for (const [key, list] of Object.entries(lists)) {
    const ids = removeIds(list.ids, gone);
    if (ids !== list.ids) out = { ...out, [key]: { ...list, ids } };
  }
  return out;
}

/** Messages no list holds any more are forgotten. */
export function pruneMessages(state: State): State["messages"] {
  const kept = new Set<number>();
  for (const list of Object.values(state.lists)) for (const id of list.ids) kept.add(id);
  if (Object.keys(state.messages).length === kept.size) return state.messages;
  const out: State["messages"] = {};
  for (const id of kept) if (state.messages[id]) out[id] = state.messages[id]!;
  return out;
}

/** Lists without the search highlights of `ids` (the messages changed). */
export function dropHighlights(lists: State["lists"], ids: readonly number[]): State["lists"] {
  let out = lists;
  for (const [key, list] of Object.entries(lists)) {
    if (!list.highlights || !ids.some((id) => id in list.highlights!)) continue;
    const highlights = { ...list.highlights };
    for (const id of ids) delete highlights[id];
    out = { ...out, [key]: { ...list, highlights } };
  }
  return out;
}
