import { Elysia, t } from "elysia";
import type { App } from "../app";
import { createProfileField, listProfileFields, updateProfileData } from "../actions/profile-fields";
import { zulip } from "../http/plugin";
import { ProfileDataSchema } from "./users";

export const profileFieldRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get("/realm/profile_fields", async ({ args }) => args.success({ custom_fields: await listProfileFields(app) }), { auth: true })
    .post(
      "/realm/profile_fields",
      async ({ args, me }) => {
        const p = args.read(
          t.Object({
            name: t.String({ default: "" }),
            hint: t.String({ default: "" }),
            field_type: t.Integer(),
            field_data: t.Record(t.String(), t.Unknown(), { default: {} }),
            display_in_profile_summary: t.Boolean({ default: false }),
            required: t.Boolean({ default: false }),
            editable_by_user: t.Boolean({ default: true }),
          }),
        );
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
        const p = args.read(t.Object({ data: ProfileDataSchema }));
        await updateProfileData(app, me, me, p.data);
        return args.success();
      },
      { auth: true },
    );
