import type { App } from "../../app";
import type { UserRow } from "../../store/users";
import { linkifierList } from "../linkifiers";
import type { StateOptions } from "./options";

/** `realm_linkifiers` initial state: empty unless the client declared the linkifier_url_template capability. */
export async function linkifiersState(app: App, _me: UserRow, opts: StateOptions) {
  return { realm_linkifiers: opts.clientCapabilities.linkifier_url_template ? await linkifierList(app) : [] };
}

/** Legacy `realm_filters` initial state: always empty since Zulip 7.0. */
export const realmFiltersState = () => ({ realm_filters: [] });
