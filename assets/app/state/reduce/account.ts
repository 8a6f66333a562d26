/** The person's own lists: alert words and saved snippets. */
import { toSnippet } from "../from-register";
import type { State } from "../types";
import { withKey, without } from "./records";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

export const onAlertWords = (state: State, e: Json): State => ({ ...state, alert_words: [...e.alert_words] });

export function onSavedSnippets(state: State, e: Json): State {
  if (e.op === "add" || e.op === "update") return { ...state, saved_snippets: withKey(state.saved_snippets, e.saved_snippet.id, toSnippet(e.saved_snippet)) };
  if (e.op === "remove") return { ...state, saved_snippets: without(state.saved_snippets, e.saved_snippet_id) };
  return state;
}
