import { Elysia, t } from "elysia";
import { realmOf, type App } from "../app";
import { deactivateOwnAccount, deactivateUserByAdmin, reactivateUser } from "../actions/deactivation";
import { ownProfile } from "../actions/profile";
import { createUserByAdmin, getUser, getUsers } from "../actions/users";
import { updateUserByAdmin } from "../actions/user-updates";
import { MAX_LIST_ITEMS, pathInt } from "../http/params";
import { zulip } from "../http/plugin";
import type { UserRow } from "../store/users";

export const Role = t.Union([t.Literal(100), t.Literal(200), t.Literal(300), t.Literal(400), t.Literal(600)]);
export const ProfileDataSchema = t.Array(
  t.Object({ id: t.Integer(), value: t.Union([t.String(), t.Array(t.Integer(), { maxItems: MAX_LIST_ITEMS }), t.Null()]) }, { additionalProperties: false }),
  { maxItems: 1000 },
);
const Format = {
  client_gravatar: t.Boolean({ default: true }),
  include_custom_profile_fields: t.Boolean({ default: false }),
};
const format = (p: { client_gravatar: boolean; include_custom_profile_fields: boolean }) => ({
  clientGravatar: p.client_gravatar,
  includeCustomProfileFields: p.include_custom_profile_fields,
});

/** `/users/{user_id}` also takes an email (GET and PATCH /users/{email}). */
const userRef = (raw: string): { id: number } | { email: string } =>
  /^\d+$/.test(raw) ? { id: pathInt(raw, "user_id") } : { email: decodeURIComponent(raw) };

const UsersListArgs = t.Object({ ...Format, user_ids: t.Optional(t.Array(t.Integer(), { maxItems: MAX_LIST_ITEMS })) });
const UserCreateArgs = t.Object({ email: t.String(), password: t.String(), full_name: t.String() });
const UserGetArgs = t.Object(Format);
const UserUpdateArgs = t.Object({ full_name: t.Optional(t.String()), role: t.Optional(Role), profile_data: t.Optional(ProfileDataSchema) });
const UserDeactivateArgs = t.Object({
  actions: t.Optional(
    t.Object(
      {
        delete_profile: t.Optional(t.Boolean()),
        delete_public_channel_messages: t.Optional(t.Boolean()),
        delete_private_channel_messages: t.Optional(t.Boolean()),
        delete_direct_messages: t.Optional(t.Boolean()),
      },
      { additionalProperties: false },
    ),
  ),
  deactivation_notification_comment: t.Optional(t.String()),
});

export const userRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get(
      "/users",
      async ({ args, me }) => {
        const p = args.read(UsersListArgs);
        return args.success({ members: await getUsers(app, me, { ...format(p), userIds: p.user_ids }) });
      },
      { optionalAuth: true },
    )
    .post(
      "/users",
      async ({ args, me }) => {
        const p = args.read(UserCreateArgs);
        return args.success({ user_id: await createUserByAdmin(app, me, { email: p.email, password: p.password, fullName: p.full_name }) });
      },
      { auth: true },
    )
    .get("/users/me", async ({ args, me }) => args.success(await ownProfile(app, me)), { auth: true })
    .delete(
      "/users/me",
      async ({ args, me }) => {
        await deactivateOwnAccount(app, me);
        return args.success();
      },
      { auth: true },
    )
    .get(
      "/users/:user_id",
      async ({ args, me, params }) => {
        const p = args.read(UserGetArgs);
        return args.success({ user: await getUser(app, me, userRef(params.user_id), format(p)) });
      },
      { auth: true },
    )
    .patch(
      "/users/:user_id",
      async ({ args, me, params }) => {
        const p = args.read(UserUpdateArgs);
        await updateUserByAdmin(app, me, userRef(params.user_id), { fullName: p.full_name, role: p.role, profileData: p.profile_data });
        return args.success();
      },
      { auth: true },
    )
    .delete(
      "/users/:user_id",
      async ({ args, me, params }) => {
        const p = args.read(UserDeactivateArgs);
        await deactivateUserByAdmin(app, me, pathInt(params.user_id, "user_id"), p.actions ?? {}, p.deactivation_notification_comment ?? null);
        return args.success();
      },
      { auth: true },
    )
    .post(
      "/users/:user_id/reactivate",
      async ({ args, me, params }) => {
        await reactivateUser(app, me, pathInt(params.user_id, "user_id"));
        return args.success();
      },
      { auth: true },
    );
