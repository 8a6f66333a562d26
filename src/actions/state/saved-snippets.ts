import type { App } from "../../app";
import type { UserRow } from "../../store/users";
import { savedSnippetList } from "../saved-snippets";

/** `saved_snippets` initial state. */
export async function savedSnippetsState(app: App, me: UserRow) {
  return { saved_snippets: await savedSnippetList(app, me) };
}
