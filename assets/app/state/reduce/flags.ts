/** update_message_flags events: read and unread, starred, and the flags of cached messages. */
import { dmKey } from "../people";
import type { Message, Place, State } from "../types";
import { addSorted, removeIds, without } from "./records";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

function setFlag(messages: State["messages"], ids: Iterable<number>, flag: string, on: boolean): State["messages"] {
  let out = messages;
  for (const id of ids) {
    const m = out[id];
    if (!m || m.flags.includes(flag) === on) continue;
    const flags = on ? [...m.flags, flag] : m.flags.filter((f) => f !== flag);
    out = { ...out, [id]: { ...m, flags } as Message };
  }
  return out;
}

function markRead(state: State, e: Json): State {
  if (e.all) {
    return { ...state, unread: { messages: {}, mentions: [] }, messages: setFlag(state.messages, Object.keys(state.messages).map(Number), "read", true) };
  }
  const ids = new Set<number>(e.messages);
  return {
    ...state,
    unread: { messages: without(state.unread.messages, ...ids), mentions: removeIds(state.unread.mentions, ids) },
    messages: setFlag(state.messages, ids, "read", true),
  };
}

function markUnread(state: State, e: Json): State {
  const messages = { ...state.unread.messages };
  let mentions = state.unread.mentions;
  for (const id of e.messages as number[]) {
    const d = e.message_details?.[id];
    if (!d) continue;
    const place: Place = d.type === "stream" ? { kind: "channel", stream_id: d.stream_id, topic: d.topic } : { kind: "dm", key: dmKey(state.me, d.user_ids ?? []) };
    messages[id] = place;
    if (d.mentioned) mentions = addSorted(mentions, id);
  }
  return { ...state, unread: { messages, mentions }, messages: setFlag(state.messages, e.messages, "read", false) };
}

export function onUpdateMessageFlags(state: State, e: Json): State {
  const on = e.op === "add";
  if (e.flag === "read") return on ? markRead(state, e) : markUnread(state, e);
  let next: State = { ...state, messages: setFlag(state.messages, e.messages, e.flag, on) };
  if (e.flag === "starred") {
    next.starred = on ? [...new Set([...state.starred, ...e.messages])].sort((a, b) => a - b) : removeIds(state.starred, new Set(e.messages));
  }
  return next;
}
