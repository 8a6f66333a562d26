/** reaction and submessage events: what readers add to a cached message (emoji reactions, widget events). */
import type { Message, Reaction, State, Submessage } from "../types";
import { withKey } from "./records";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const sameEmoji = (r: Reaction, e: Json) => r.user_id === e.user_id && r.reaction_type === e.reaction_type && r.emoji_code === e.emoji_code;

function withMessage(state: State, id: number, change: (m: Message) => Message): State {
  const m = state.messages[id];
  return m ? { ...state, messages: withKey(state.messages, id, change(m)) } : state;
}

export function onReaction(state: State, e: Json): State {
  const user_id: number = e.user_id ?? e.user?.user_id;
  const event = { ...e, user_id };
  return withMessage(state, e.message_id, (m) => {
    const others = m.reactions.filter((r) => !sameEmoji(r, event));
    if (e.op === "remove") return others.length === m.reactions.length ? m : { ...m, reactions: others };
    if (others.length !== m.reactions.length) return m;
    const reaction: Reaction = { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type, user_id };
    return { ...m, reactions: [...m.reactions, reaction] };
  });
}

export function onSubmessage(state: State, e: Json): State {
  return withMessage(state, e.message_id, (m) => {
    if (m.submessages.some((s) => s.id === e.submessage_id)) return m;
    const s: Submessage = { id: e.submessage_id, message_id: e.message_id, sender_id: e.sender_id, msg_type: e.msg_type, content: e.content };
    return { ...m, submessages: [...m.submessages, s] };
  });
}
