import { realmOf, type App } from "../../app";
import { listNamedGroups } from "../../store/groups";
import type { UserRow } from "../../store/users";
import { serializeGroups } from "../user-groups";
import type { StateOptions } from "./options";

/** `realm_user_groups` initial state: named groups (deactivated ones only with include_deactivated_groups). */
export async function userGroupState(app: App, _me: UserRow, opts: StateOptions) {
  const includeDeactivated = Boolean(opts.clientCapabilities.include_deactivated_groups);
  return { realm_user_groups: await serializeGroups(app, await listNamedGroups(app.db, realmOf(app).id, includeDeactivated)) };
}
