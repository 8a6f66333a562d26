import { realmOf, type App } from "../app";
import {
  canBeInSummary,
  checkFieldData,
  checkFieldNameAndHint,
  checkFieldValue,
  fieldDict,
  isEmptyValue,
  MAX_DISPLAY_IN_PROFILE_SUMMARY,
  renderFieldValue,
  type FieldRow,
} from "../domain/profile-fields";
import { isAdmin } from "../domain/roles";
import { adminRequired, badRequest } from "../errors";
import { countSummaryFields, deleteField, deleteValue, findField, findFieldByName, insertField, listFields, setValue, updateField } from "../store/profile-fields";
import { listActiveUserIds, listUsersByIds, type UserRow } from "../store/users";
import { profileDataOf } from "./profile-data";
import { usersWhoCanAccess } from "./user-access";

/** GET /realm/profile_fields: every field, in display order. */
export async function listProfileFields(app: App) {
  return (await listFields(app.db, realmOf(app).id)).map(fieldDict);
}

export interface NewField {
  name: string;
  hint: string;
  fieldType: number;
  fieldData: Record<string, unknown>;
  displayInProfileSummary: boolean;
  required: boolean;
  editableByUser: boolean;
}

/** POST /realm/profile_fields (administrators): creates a field and tells everyone the new list. */
export async function createProfileField(app: App, actor: UserRow, input: NewField): Promise<number> {
  if (!isAdmin(actor.role)) throw adminRequired();
  const realm = realmOf(app);
  checkFieldNameAndHint(input.name, input.hint);
  const fieldData = checkFieldData(input.fieldType, input.fieldData);
  const name = input.name.trim();
  const id = await app.db.tx(async (sql) => {
    if (await findFieldByName(sql, realm.id, name)) throw badRequest("A field with that label already exists.");
    if (input.displayInProfileSummary) {
      if (!canBeInSummary(input.fieldType)) throw badRequest("Long text and person picker fields cannot be displayed in the profile summary.");
      if ((await countSummaryFields(sql, realm.id)) >= MAX_DISPLAY_IN_PROFILE_SUMMARY) {
        throw badRequest(`Only ${MAX_DISPLAY_IN_PROFILE_SUMMARY} custom profile fields can be displayed in the profile summary.`);
      }
    }
    return insertField(sql, {
      realm_id: realm.id,
      name,
      hint: input.hint,
      field_type: input.fieldType,
      field_data: fieldData,
      display_in_profile_summary: input.displayInProfileSummary ? 1 : 0,
      required: input.required ? 1 : 0,
      editable_by_user: input.editableByUser ? 1 : 0,
    });
  });
  await notifyFields(app);
  return id;
}

export interface FieldUpdate {
  name?: string;
  hint?: string;
  fieldData?: Record<string, unknown>;
  displayInProfileSummary?: boolean;
  required?: boolean;
  editableByUser?: boolean;
}

async function accessField(app: App, actor: UserRow, id: number): Promise<FieldRow> {
  if (!isAdmin(actor.role)) throw adminRequired();
  const field = await findField(app.db, realmOf(app).id, id);
  if (!field) throw badRequest("Field id " + id + " not found.");
  return field;
}

/** PATCH /realm/profile_fields/{field_id} (administrators). */
export async function updateProfileField(app: App, actor: UserRow, id: number, input: FieldUpdate): Promise<void> {
  const field = await accessField(app, actor, id);
  const realm = realmOf(app);
  const name = input.name !== undefined ? input.name.trim() : field.name;
  const hint = input.hint ?? field.hint;
  checkFieldNameAndHint(name, hint);
  const fieldData = input.fieldData !== undefined ? checkFieldData(field.field_type, input.fieldData) : field.field_data;
  await app.db.tx(async (sql) => {
    const other = await findFieldByName(sql, realm.id, name);
    if (other && other.id !== id) throw badRequest("A field with that label already exists.");
    if (input.displayInProfileSummary && !field.display_in_profile_summary) {
      if (!canBeInSummary(field.field_type)) throw badRequest("Long text and person picker fields cannot be displayed in the profile summary.");
      if ((await countSummaryFields(sql, realm.id)) >= MAX_DISPLAY_IN_PROFILE_SUMMARY) {
        throw badRequest(`Only ${MAX_DISPLAY_IN_PROFILE_SUMMARY} custom profile fields can be displayed in the profile summary.`);
      }
    }
    await updateField(sql, id, {
      name,
      hint,
      field_data: fieldData,
      ...(input.displayInProfileSummary !== undefined ? { display_in_profile_summary: input.displayInProfileSummary ? 1 : 0 } : {}),
      ...(input.required !== undefined ? { required: input.required ? 1 : 0 } : {}),
      ...(input.editableByUser !== undefined ? { editable_by_user: input.editableByUser ? 1 : 0 } : {}),
    });
  });
  await notifyFields(app);
}

/** DELETE /realm/profile_fields/{field_id} (administrators): the field and everyone's values go. */
export async function deleteProfileField(app: App, actor: UserRow, id: number): Promise<void> {
  await accessField(app, actor, id);
  await app.db.tx((sql) => deleteField(sql, id));
  await notifyFields(app);
}

/** PATCH /realm/profile_fields (administrators): `order` lists every field id in the new order. */
export async function reorderProfileFields(app: App, actor: UserRow, order: number[]): Promise<void> {
  if (!isAdmin(actor.role)) throw adminRequired();
  const fields = await listFields(app.db, realmOf(app).id);
  const ids = new Set(fields.map((f) => f.id));
  if (order.length !== ids.size || new Set(order).size !== order.length || !order.every((id) => ids.has(id))) throw badRequest("Invalid order mapping.");
  await app.db.tx(async (sql) => {
    for (const [i, id] of order.entries()) await updateField(sql, id, { order: i + 1 });
  });
  await notifyFields(app);
}

/** DELETE /users/me/profile_data: clears the caller's values of these fields. */
export async function removeOwnProfileData(app: App, me: UserRow, fieldIds: number[]): Promise<void> {
  await updateProfileData(app, me, me, fieldIds.map((id) => ({ id, value: null })));
}

async function notifyFields(app: App) {
  const realm = realmOf(app);
  const fields = await listProfileFields(app);
  app.events.publish({ type: "custom_profile_fields", fields }, await listActiveUserIds(app.db, realm.id));
}

export interface ProfileDataItem {
  id: number;
  value: unknown;
}

/**
 * Sets (or, with an empty value, clears) custom profile values of `target`. Users may edit their
 * own editable fields; administrators any field of anyone. One realm_user update event per change.
 */
export async function updateProfileData(app: App, actor: UserRow, target: UserRow, items: ProfileDataItem[]): Promise<void> {
  const realm = realmOf(app);
  const fields = new Map((await listFields(app.db, realm.id)).map((f) => [f.id, f]));
  const mentioned = items.flatMap((i) => (Array.isArray(i.value) ? i.value.filter((v): v is number => typeof v === "number") : []));
  const activeIds = new Set((await listUsersByIds(app.db, mentioned)).filter((u) => u.is_active && u.realm_id === realm.id).map((u) => u.id));
  const planned: { field: FieldRow; value: string | null; rendered: string | null }[] = [];
  for (const item of items) {
    const field = fields.get(item.id);
    if (!field) throw badRequest(`Field id ${item.id} not found.`);
    if (!isAdmin(actor.role) && !field.editable_by_user) {
      throw badRequest("You are not allowed to change this field. Contact an administrator to update it.");
    }
    if (isEmptyValue(item.value)) {
      planned.push({ field, value: null, rendered: null });
      continue;
    }
    const value = checkFieldValue(field, item.value, (id) => activeIds.has(id));
    planned.push({ field, value, rendered: await renderFieldValue(field.field_type, value) });
  }
  const current = (await profileDataOf(app, [target.id])).get(target.id) ?? {};
  const changes = planned.filter((p) => (current[String(p.field.id)]?.value ?? null) !== p.value);
  if (!changes.length) return;
  await app.db.tx(async (sql) => {
    for (const c of changes) {
      if (c.value === null) await deleteValue(sql, target.id, c.field.id);
      else await setValue(sql, { user_id: target.id, field_id: c.field.id, value: c.value, rendered_value: c.rendered });
    }
  });
  const audience = await usersWhoCanAccess(app, target.id);
  for (const c of changes) {
    const custom: Record<string, unknown> = { id: c.field.id, value: c.value };
    if (c.rendered !== null) custom.rendered_value = c.rendered;
    app.events.publish({ type: "realm_user", op: "update", person: { user_id: target.id, custom_profile_field: custom } }, audience);
  }
}
