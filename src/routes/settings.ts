import { Elysia, t, type TSchema } from "elysia";
import type { App } from "../app";
import { updateRealmUserDefaults, updateSettings, type SettingChanges } from "../actions/settings";
import { USER_SETTING_NAMES, USER_SETTING_SPECS, type UserSettingName } from "../domain/user-settings";
import { MAX_PASSWORD_LENGTH } from "../domain/validate";
import type { Params } from "../http/params";
import { zulip } from "../http/plugin";
import { sessionToken } from "../http/auth";
import type { UserRow } from "../store/users";

/** The wire type of one setting: boolean, integer (or one of its choices), string (or one of its choices). */
function settingSchema(name: UserSettingName): TSchema {
  const spec = USER_SETTING_SPECS[name];
  if (spec.kind === "bool") return t.Boolean();
  if (spec.kind === "int") return spec.choices ? t.Union(spec.choices.map((c) => t.Literal(c))) : t.Integer();
  return spec.choices ? t.Union(spec.choices.map((c) => t.Literal(c))) : t.String();
}
const optionalSettings = (names: UserSettingName[]) => Object.fromEntries(names.map((n) => [n, t.Optional(settingSchema(n))]));

const Settings = t.Object({
  ...optionalSettings(USER_SETTING_NAMES),
  full_name: t.Optional(t.String()),
  timezone: t.Optional(t.String()),
  old_password: t.Optional(t.String()),
  new_password: t.Optional(t.String({ maxLength: MAX_PASSWORD_LENGTH })),
});

/** Zulip's RealmUserDefault takes every personal preference but these (identity-like or per-user only). */
const NOT_REALM_DEFAULTS = new Set<UserSettingName>(["default_language", "enable_login_emails", "enable_marketing_emails", "allow_private_data_export"]);
const RealmDefaults = t.Object(optionalSettings(USER_SETTING_NAMES.filter((n) => !NOT_REALM_DEFAULTS.has(n))));

const pickSettings = (p: Record<string, unknown>): SettingChanges =>
  Object.fromEntries(USER_SETTING_NAMES.filter((n) => p[n] !== undefined).map((n) => [n, p[n]])) as SettingChanges;

export const settingsRoutes = (app: App) => {
  const patchSettings = async ({ args, me, request }: { args: Params; me: UserRow; request: Request }) => {
    const p = args.read(Settings) as Record<string, any>;
    const session = request.headers.get("authorization") ? null : sessionToken(request);
    await updateSettings(app, me, { settings: pickSettings(p), fullName: p.full_name, timezone: p.timezone, oldPassword: p.old_password, newPassword: p.new_password, currentSession: session });
    return args.success();
  };
  return new Elysia()
    .use(zulip(app))
    .patch("/settings", patchSettings, { auth: true })
    .patch("/settings/display", patchSettings, { auth: true })
    .patch("/settings/notifications", patchSettings, { auth: true })
    .patch(
      "/realm/user_settings_defaults",
      async ({ args, me }) => {
        await updateRealmUserDefaults(app, me, pickSettings(args.read(RealmDefaults) as Record<string, unknown>));
        return args.success();
      },
      { auth: true },
    );
};
