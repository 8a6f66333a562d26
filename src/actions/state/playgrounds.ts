import type { App } from "../../app";
import { playgroundList } from "../playgrounds";

/** `realm_playgrounds` initial state. */
export async function playgroundsState(app: App) {
  return { realm_playgrounds: await playgroundList(app) };
}
