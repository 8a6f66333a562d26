import type { App } from "../../app";
import type { UserRow } from "../../store/users";
import { getAlertWords } from "../alert-words";

/** `alert_words` initial state. */
export async function alertWordsState(app: App, me: UserRow) {
  return { alert_words: await getAlertWords(app, me) };
}
