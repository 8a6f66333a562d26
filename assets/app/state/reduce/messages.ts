/** message, update_message and delete_message events. */
import { isMentioned } from "../narrow";
import { messageDmKey } from "../people";
import type { Message, Place, State } from "../types";
import { dropFromLists, dropHighlights, placeInLists } from "./lists";
import { addSorted, removeIds, withKey, without } from "./records";
import { forgetTopic, noteTopic, topicMessagesGone } from "./topics";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

function placeOf(state: State, m: Message): Place {
  return m.type === "stream" ? { kind: "channel", stream_id: m.stream_id!, topic: m.subject } : { kind: "dm", key: messageDmKey(state.me, m) };
}

export function onMessage(state: State, e: Json): State {
  const m: Message = { ...e.message, flags: e.flags ?? [], reactions: e.message.reactions ?? [], submessages: e.message.submessages ?? [] };
  // kept even when no view holds it yet: a view being fetched right now takes it in (fetched.ts);
  // the views' next clean-up (keepLists) forgets it otherwise
  let next: State = { ...state, messages: withKey(state.messages, m.id, m) };
  next.lists = placeInLists(next, [m]);
  if (!m.flags.includes("read")) {
    next.unread = {
      messages: withKey(state.unread.messages, m.id, placeOf(state, m)),
      mentions: isMentioned(m.flags) ? addSorted(state.unread.mentions, m.id) : state.unread.mentions,
    };
  }
  if (m.flags.includes("starred")) next.starred = addSorted(state.starred, m.id);
  if (m.type === "private") {
    const key = messageDmKey(state.me, m);
    if ((state.recent_dms[key] ?? 0) < m.id) next.recent_dms = withKey(state.recent_dms, key, m.id);
  } else {
    next = noteTopic(next, m.stream_id!, m.subject, m.id);
  }
  return next;
}

/** The edited message's new content and the person's flags for it. */
function editContent(state: State, e: Json): State {
  let next = state;
  const id: number = e.message_id;
  const cur = state.messages[id];
  if (cur && e.rendered_content !== undefined) {
    const edited: Message = { ...cur, content: e.rendered_content, is_me_message: e.is_me_message ?? cur.is_me_message };
    if (!e.rendering_only) edited.last_edit_timestamp = e.edit_timestamp;
    next = { ...next, messages: withKey(next.messages, id, edited) };
  }
  if (Array.isArray(e.flags)) {
    const flags: string[] = e.flags;
    if (next.messages[id]) next = { ...next, messages: withKey(next.messages, id, { ...next.messages[id]!, flags }) };
    const unreadNow = id in next.unread.messages && !flags.includes("read");
    const mentions = unreadNow && isMentioned(flags) ? addSorted(next.unread.mentions, id) : removeIds(next.unread.mentions, new Set([id]));
    const messages = flags.includes("read") ? without(next.unread.messages, id) : next.unread.messages;
    if (mentions !== next.unread.mentions || messages !== next.unread.messages) next = { ...next, unread: { messages, mentions } };
  }
  return next;
}

/**
 * Messages moved to another topic or channel: their place in the unread set, the cache and the lists.
 * Moved into a channel the person is not subscribed to, they are no longer theirs (the server drops
 * their copies, as Zulip does), so the app forgets them.
 */
function move(state: State, e: Json): State {
  const streamId: number = e.new_stream_id ?? e.stream_id;
  const topic: string | undefined = e.subject;
  const ids: number[] = e.message_ids;
  if (e.new_stream_id !== undefined && !state.subscriptions[streamId]) {
    const gone = onDeleteMessage(state, { message_ids: ids, message_type: "stream", stream_id: e.stream_id, topic: e.orig_subject });
    return e.propagate_mode === "change_all" ? forgetTopic(gone, e.stream_id, e.orig_subject) : gone;
  }
  let messages = state.messages;
  let unread = state.unread.messages;
  const moved: Message[] = [];
  for (const id of ids) {
    const cur = messages[id];
    if (cur) {
      const m: Message = { ...cur, stream_id: streamId, subject: topic ?? cur.subject, last_moved_timestamp: e.edit_timestamp };
      if (e.new_stream_id !== undefined) m.display_recipient = state.channels[streamId]?.name ?? cur.display_recipient;
      messages = withKey(messages, id, m);
      moved.push(m);
    }
    const place = unread[id];
    if (place?.kind === "channel") unread = withKey(unread, id, { kind: "channel", stream_id: streamId, topic: topic ?? place.topic });
  }
  let next: State = { ...state, messages, unread: { ...state.unread, messages: unread } };
  next.lists = placeInLists(next, moved);
  // every message of the topic went: it leaves its channel's topic list; some did: it may have
  if (e.propagate_mode === "change_all") next = forgetTopic(next, e.stream_id, e.orig_subject);
  else next = topicMessagesGone(next, e.stream_id, e.orig_subject, ids);
  return noteTopic(next, streamId, topic ?? e.orig_subject, Math.max(...ids));
}

export function onUpdateMessage(state: State, e: Json): State {
  let next = editContent(state, e);
  if (e.new_stream_id !== undefined || e.subject !== undefined) next = move(next, e);
  // a search result's highlighted form no longer matches what it says
  if (!e.rendering_only) next = { ...next, lists: dropHighlights(next.lists, e.message_ids ?? [e.message_id]) };
  return next;
}

export function onDeleteMessage(state: State, e: Json): State {
  const ids: number[] = e.message_ids ?? [e.message_id];
  const gone = new Set<number>(ids);
  const next = e.message_type === "stream" ? topicMessagesGone(state, e.stream_id, e.topic, ids) : state;
  return {
    ...next,
    messages: without(state.messages, ...gone),
    lists: dropFromLists(state.lists, gone),
    unread: { messages: without(state.unread.messages, ...gone), mentions: removeIds(state.unread.mentions, gone) },
    starred: removeIds(state.starred, gone),
  };
}
