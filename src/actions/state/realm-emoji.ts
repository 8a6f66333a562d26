import type { App } from "../../app";
import { realmEmojiMap } from "../realm-emoji";

/** `realm_emoji` initial state: every custom emoji (deactivated ones too), keyed by id. */
export async function realmEmojiState(app: App) {
  return { realm_emoji: await realmEmojiMap(app) };
}
