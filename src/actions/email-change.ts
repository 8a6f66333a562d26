import { nowSecs, realmOf, type App } from "../app";
import { canSeeDeliveryEmail, emailVisibilityOf } from "../domain/user-format";
import { isAdmin } from "../domain/roles";
import { isValidEmail } from "../domain/validate";
import { badRequest } from "../errors";
import { randomAlnum } from "../lib/random";
import { expireUserEmailTokens, findUsableEmailToken, insertEmailToken, useEmailToken } from "../store/email-tokens";
import { findUserByEmail, findUserById, listUsersByIds, updateUser, type UserRow } from "../store/users";
import { apiEmailFor } from "./email-visibility";
import { queueEmail } from "./mail";
import { hashToken } from "./password-reset";
import { usersWhoCanAccess } from "./user-access";

/** A confirmation link for a new address works for a day (Zulip's default confirmation validity). */
export const EMAIL_CHANGE_SECONDS = 24 * 3600;

/**
 * PATCH /settings `email` (Zulip's do_start_email_change_process): the new address is checked, then
 * gets a confirmation link; nothing changes until it is opened. Refused when the organization
 * disabled email changes, unless the person is an administrator (as Zulip).
 */
export async function checkEmailChange(app: App, me: UserRow, raw: string): Promise<string | null> {
  const email = raw.trim();
  if (email.toLowerCase() === me.delivery_email.toLowerCase()) return null;
  if (realmOf(app).settings.email_changes_disabled && !isAdmin(me.role)) throw badRequest("Email address changes are disabled in this organization.");
  if (!isValidEmail(email)) throw badRequest("Invalid address.");
  if (await findUserByEmail(app.db, realmOf(app).id, email)) throw badRequest(`Email '${email}' already in use`);
  return email;
}

/** Queues the confirmation link to the new address (an earlier unconfirmed one stops working). */
export async function startEmailChange(app: App, me: UserRow, email: string): Promise<void> {
  const token = randomAlnum(40);
  const now = nowSecs(app);
  const realm = realmOf(app);
  const url = `${app.config.server.external_url}/accounts/confirm_new_email/${token}/`;
  await app.db.tx(async (sql) => {
    await expireUserEmailTokens(sql, me.id, "email_change", now);
    await insertEmailToken(sql, { token_hash: hashToken(token), kind: "email_change", user_id: me.id, new_email: email, created: now, expires: now + EMAIL_CHANGE_SECONDS });
    const body = [
      `Hello ${me.full_name},`,
      "",
      `You asked to change the email address of your account in ${realm.name} from ${me.delivery_email} to this one.`,
      "Confirm it here (the link works once, for a day):",
      url,
      "",
      "If you did not ask for this, ignore this email: nothing changes.",
    ].join("\n");
    await queueEmail(app, sql, { to: email, subject: `Confirm your new email address for ${realm.name}`, body });
  });
}

/** The pending change a link confirms while it can be used, else null. */
export async function pendingEmailChange(app: App, token: string): Promise<{ user: UserRow; email: string } | null> {
  const row = await findUsableEmailToken(app.db, hashToken(token), "email_change", nowSecs(app));
  const user = row && (await findUserById(app.db, row.user_id));
  return user && user.is_active ? { user, email: row!.new_email! } : null;
}

/**
 * Opening the link (Zulip's do_change_user_delivery_email): the new address becomes the login and
 * delivery address (and the API email, when the person shows it to everyone); realm_user update
 * events carry it to those who may see it. Returns null for a used, expired or taken link.
 */
export async function confirmEmailChange(app: App, token: string): Promise<{ user: UserRow; email: string } | null> {
  const now = nowSecs(app);
  const done = await app.db.tx(async (sql) => {
    const row = await useEmailToken(sql, hashToken(token), "email_change", now);
    const before = row && (await findUserById(sql, row.user_id));
    if (!before || !before.is_active) return null;
    const email = row!.new_email!;
    const other = await findUserByEmail(sql, before.realm_id, email);
    if (other && other.id !== before.id) return null; // taken since the link was sent
    const after = { ...before, delivery_email: email, email: apiEmailFor(app, { id: before.id, delivery_email: email }, emailVisibilityOf(before)) };
    await updateUser(sql, before.id, { delivery_email: after.delivery_email, email: after.email });
    // as Zulip's notify_change_in_email: the old address hears of it, in case it was not its owner's doing
    const realm = realmOf(app);
    await queueEmail(app, sql, {
      to: before.delivery_email,
      subject: `Your email address for ${realm.name} has changed`,
      body: [`Hello ${before.full_name},`, "", `The email address of your account in ${realm.name} (${app.config.server.external_url}) is now ${email}.`, "", "If you did not make this change, contact your organization's administrators."].join("\n"),
    });
    return { before, after };
  });
  if (!done) return null;
  const { before, after } = done;
  const audience = await usersWhoCanAccess(app, after.id);
  for (const viewer of await listUsersByIds(app.db, audience)) {
    if (canSeeDeliveryEmail(viewer, after)) app.events.publish({ type: "realm_user", op: "update", person: { user_id: after.id, delivery_email: after.delivery_email } }, [viewer.id]);
  }
  if (after.email !== before.email) app.events.publish({ type: "realm_user", op: "update", person: { user_id: after.id, new_email: after.email } }, audience);
  return { user: after, email: after.delivery_email };
}
