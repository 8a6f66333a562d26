import type { App } from "../../app";
import type { UserRow } from "../../store/users";
import { FIELD_TYPES, withoutPronounsType } from "../../domain/profile-fields";
import { listProfileFields } from "../profile-fields";
import type { StateOptions } from "./options";

/**
 * `custom_profile_fields` initial state: the fields and the field types. A client that declared
 * pronouns_field_type_supported false (Zulip's default is true) sees pronouns fields as short text.
 */
export async function customProfileFieldState(app: App, _me: UserRow, opts: StateOptions) {
  const fields = await listProfileFields(app);
  if (opts.clientCapabilities.pronouns_field_type_supported !== false) return { custom_profile_fields: fields, custom_profile_field_types: FIELD_TYPES };
  const { PRONOUNS: _, ...types } = FIELD_TYPES;
  return { custom_profile_fields: withoutPronounsType(fields), custom_profile_field_types: types };
}
