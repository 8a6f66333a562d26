import { Elysia, t } from "elysia";
import type { App } from "../app";
import { inviteByEmail, resendEmailInvite, revokeEmailInvite } from "../actions/email-invites";
import { createMultiuseInvite, listInvites, revokeMultiuseInvite } from "../actions/invites";
import { MAX_LIST_ITEMS, pathInt } from "../http/params";
import { zulip } from "../http/plugin";

/** At most a century: an expiry beyond that is no date a client can show. */
const Expiry = t.Optional(t.Union([t.Integer({ minimum: 1, maximum: 100 * 366 * 24 * 60 }), t.Null()]));

const Role = t.Union([t.Literal(100), t.Literal(200), t.Literal(300), t.Literal(400), t.Literal(600)]);

const MultiuseInviteArgs = t.Object({
  invite_expires_in_minutes: Expiry,
  invite_as: t.Optional(Role),
  stream_ids: t.Array(t.Integer(), { maxItems: MAX_LIST_ITEMS, default: [] }),
  group_ids: t.Array(t.Integer(), { maxItems: MAX_LIST_ITEMS, default: [] }),
  include_realm_default_subscriptions: t.Boolean({ default: false }),
  welcome_message_custom_text: t.Optional(t.String()),
});

const EmailInviteArgs = t.Object({
  invitee_emails: t.String(),
  invite_expires_in_minutes: Expiry,
  invite_as: t.Optional(Role),
  stream_ids: t.Array(t.Integer(), { maxItems: MAX_LIST_ITEMS }),
  group_ids: t.Array(t.Integer(), { maxItems: MAX_LIST_ITEMS, default: [] }),
  include_realm_default_subscriptions: t.Boolean({ default: false }),
  notify_referrer_on_join: t.Boolean({ default: true }),
  welcome_message_custom_text: t.Optional(t.String()),
});

export const inviteRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get("/invites", async ({ args, me }) => args.success({ invites: await listInvites(app, me) }), { auth: true })
    .post(
      "/invites",
      async ({ args, me }) => {
        const p = args.read(EmailInviteArgs);
        await inviteByEmail(app, me, {
          inviteeEmails: p.invitee_emails,
          expiresInMinutes: p.invite_expires_in_minutes,
          invitedAs: p.invite_as ?? 400,
          streamIds: p.stream_ids,
          groupIds: p.group_ids,
          includeRealmDefaultSubscriptions: p.include_realm_default_subscriptions,
          notifyReferrerOnJoin: p.notify_referrer_on_join,
          welcomeMessageCustomText: p.welcome_message_custom_text,
        });
        return args.success();
      },
      { auth: true },
    )
    .delete(
      "/invites/:invite_id",
      async ({ args, me, params }) => {
        await revokeEmailInvite(app, me, pathInt(params.invite_id, "invite_id"));
        return args.success();
      },
      { auth: true },
    )
    .post(
      "/invites/:invite_id/resend",
      async ({ args, me, params }) => {
        await resendEmailInvite(app, me, pathInt(params.invite_id, "invite_id"));
        return args.success();
      },
      { auth: true },
    )
    .post(
      "/invites/multiuse",
      async ({ args, me }) => {
        const p = args.read(MultiuseInviteArgs);
        const link = await createMultiuseInvite(app, me, {
          expiresInMinutes: p.invite_expires_in_minutes,
          invitedAs: p.invite_as ?? 400,
          streamIds: p.stream_ids,
          groupIds: p.group_ids,
          includeRealmDefaultSubscriptions: p.include_realm_default_subscriptions,
          welcomeMessageCustomText: p.welcome_message_custom_text,
        });
        return args.success({ invite_link: link });
      },
      { auth: true },
    )
    .delete(
      "/invites/multiuse/:invite_id",
      async ({ args, me, params }) => {
        await revokeMultiuseInvite(app, me, pathInt(params.invite_id, "invite_id"));
        return args.success();
      },
      { auth: true },
    );
