import { Elysia, t } from "elysia";
import type { App } from "../app";
import {
  createProfileField,
  deleteProfileField,
  listProfileFields,
  removeOwnProfileData,
  reorderProfileFields,
  updateProfileData,
  updateProfileField,
} from "../actions/profile-fields";
import { MAX_LIST_ITEMS, pathInt } from "../http/params";
import { zulip } from "../http/plugin";
import { ProfileDataSchema } from "./users";

const ProfileFieldCreateArgs = t.Object({
  name: t.String({ default: "" }),
  hint: t.String({ default: "" }),
  field_type: t.Integer(),
  field_data: t.Record(t.String(), t.Unknown(), { default: {} }),
  display_in_profile_summary: t.Boolean({ default: false }),
  required: t.Boolean({ default: false }),
  editable_by_user: t.Boolean({ default: true }),
});
const ProfileDataUpdateArgs = t.Object({ data: ProfileDataSchema });
const ProfileFieldReorderArgs = t.Object({ order: t.Array(t.Integer(), { maxItems: MAX_LIST_ITEMS }) });
const ProfileFieldUpdateArgs = t.Object({
  name: t.Optional(t.String()),
  hint: t.Optional(t.String()),
  field_data: t.Optional(t.Record(t.String(), t.Unknown())),
  display_in_profile_summary: t.Optional(t.Boolean()),
  required: t.Optional(t.Boolean()),
  editable_by_user: t.Optional(t.Boolean()),
});
const ProfileDataRemoveArgs = t.Object({ data: t.Array(t.Integer(), { maxItems: MAX_LIST_ITEMS }) });

export const profileFieldRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get("/realm/profile_fields", async ({ args }) => args.success({ custom_fields: await listProfileFields(app) }), { auth: true })
    .post(
      "/realm/profile_fields",
      async ({ args, me }) => {
        const p = args.read(ProfileFieldCreateArgs);
        const id = await createProfileField(app, me, {
          name: p.name,
          hint: p.hint,
          fieldType: p.field_type,
          fieldData: p.field_data,
          displayInProfileSummary: p.display_in_profile_summary,
          required: p.required,
          editableByUser: p.editable_by_user,
        });
        return args.success({ id });
      },
      { auth: true },
    )
    .patch(
      "/users/me/profile_data",
      async ({ args, me }) => {
        const p = args.read(ProfileDataUpdateArgs);
        await updateProfileData(app, me, me, p.data);
        return args.success();
      },
      { auth: true },
    )
    .patch(
      "/realm/profile_fields",
      async ({ args, me }) => {
        const p = args.read(ProfileFieldReorderArgs);
        await reorderProfileFields(app, me, p.order);
        return args.success();
      },
      { auth: true },
    )
    .patch(
      "/realm/profile_fields/:field_id",
      async ({ args, me, params }) => {
        const p = args.read(ProfileFieldUpdateArgs);
        await updateProfileField(app, me, pathInt(params.field_id, "field_id"), {
          name: p.name,
          hint: p.hint,
          fieldData: p.field_data,
          displayInProfileSummary: p.display_in_profile_summary,
          required: p.required,
          editableByUser: p.editable_by_user,
        });
        return args.success();
      },
      { auth: true },
    )
    .delete(
      "/realm/profile_fields/:field_id",
      async ({ args, me, params }) => {
        await deleteProfileField(app, me, pathInt(params.field_id, "field_id"));
        return args.success();
      },
      { auth: true },
    )
    .delete(
      "/users/me/profile_data",
      async ({ args, me }) => {
        const p = args.read(ProfileDataRemoveArgs);
        await removeOwnProfileData(app, me, p.data);
        return args.success();
      },
      { auth: true },
    );
