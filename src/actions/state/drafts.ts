import type { App } from "../../app";
import type { UserRow } from "../../store/users";
import { draftsForRegister } from "../drafts";

/** `drafts` initial state (empty when the user turned draft synchronization off). */
export async function draftsState(app: App, me: UserRow) {
  return { drafts: await draftsForRegister(app, me) };
}
