/** drafts and scheduled_messages events: the person's drafts on the server and their messages to send later. */
import { toDraft, toScheduled } from "../from-register";
import type { State } from "../types";
import { withKey, without } from "./records";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

export function onDrafts(state: State, e: Json): State {
  switch (e.op) {
    case "add": {
      let drafts = state.drafts;
      for (const d of e.drafts) drafts = withKey(drafts, d.id, toDraft(d));
      return { ...state, drafts };
    }
    case "update":
      return { ...state, drafts: withKey(state.drafts, e.draft.id, toDraft(e.draft)) };
    case "remove":
      return { ...state, drafts: without(state.drafts, e.draft_id) };
    default:
      return state;
  }
}

export function onScheduledMessages(state: State, e: Json): State {
  switch (e.op) {
    case "add": {
      let scheduled = state.scheduled;
      for (const m of e.scheduled_messages) scheduled = withKey(scheduled, m.scheduled_message_id, toScheduled(m));
      return { ...state, scheduled };
    }
    case "update":
      return { ...state, scheduled: withKey(state.scheduled, e.scheduled_message.scheduled_message_id, toScheduled(e.scheduled_message)) };
    case "remove":
      return { ...state, scheduled: without(state.scheduled, e.scheduled_message_id) };
    default:
      return state;
  }
}
