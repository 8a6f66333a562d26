import type { App } from "../../app";
import { FIELD_TYPES } from "../../domain/profile-fields";
import { listProfileFields } from "../profile-fields";

/** `custom_profile_fields` initial state: the fields and the field types. */
export async function customProfileFieldState(app: App) {
  return { custom_profile_fields: await listProfileFields(app), custom_profile_field_types: FIELD_TYPES };
}
