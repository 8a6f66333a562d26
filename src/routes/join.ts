import { Elysia } from "elysia";
import type { App } from "../app";
import { describeInvite, InviteLinkError, redeemInvite } from "../actions/join";
import { logIn, SESSION_SECONDS } from "../actions/sessions";
import { ZulipError } from "../errors";
import { CSRF_COOKIE, SESSION_COOKIE } from "../http/auth";
import { cookie, secureCookies } from "../http/cookies";
import { clientOf } from "../http/client-address";
import { realmOf } from "../app";
import type { InviteRow } from "../store/invites";

/**
 * Redeeming an invitation link, outside /api/v1: GET /join/{key}/ serves a small sign-up page,
 * POST /join/{key}/ (email, full_name, password) creates the account, logs it in and sends the
 * browser to the web client. Unknown links are 404 pages, revoked or expired ones 410.
 */

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

const STYLE = `body{font-family:system-ui,sans-serif;max-width:26rem;margin:4rem auto;padding:0 1rem;color:#222}
label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.4rem;box-sizing:border-box}
button{margin-top:1rem;padding:.5rem 1rem}.error{color:#b00020}.note{margin:.2rem 0;font-size:.9em;color:#555}
input[readonly]{background:#eee}`;

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title><style>${STYLE}</style></head><body><h1>${escape(title)}</h1>${body}</body></html>`;
  return new Response(html, { status, headers: HEADERS });
}

/** The sign-up form; an emailed invitation's address is shown fixed (the server ignores any other). */
function signUpPage(app: App, found: Found, form: { email?: string; full_name?: string } = {}, error?: string, status = 200): Response {
  const realm = realmOf(app);
  const { invite, inviter } = found;
  const fixed = invite.is_multiuse ? null : invite.email!;
  const email = fixed ?? form.email ?? "";
  return page(
    `Join ${realm.name}`,
    `<p>${inviter ? `${escape(inviter)} invited you` : "You have been invited"} to join <strong>${escape(realm.name)}</strong>.</p>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ""}
<form method="post" action="/join/${escape(invite.key)}/">
<label for="email">Email</label><input id="email" name="email" type="email" required value="${escape(email)}"${fixed ? ' readonly aria-describedby="email-note"' : ""}>
${fixed ? '<p id="email-note" class="note">Your account uses the address this invitation was sent to.</p>' : ""}
<label for="full_name">Full name</label><input id="full_name" name="full_name" required autocomplete="name" value="${escape(form.full_name ?? "")}">
<label for="password">Password</label><input id="password" name="password" type="password" required autocomplete="new-password">
<button type="submit">Sign up</button>
</form>`,
    status,
  );
}

const linkErrorPage = (e: InviteLinkError) => page(e.status === 404 ? "Invitation not found" : "Invitation no longer valid", `<p>${escape(e.message)}</p>`, e.status);

export const joinRoutes = (app: App) =>
  new Elysia()
    .get("/join/:key", ({ params }) => showJoin(app, params.key))
    .get("/join/:key/", ({ params }) => showJoin(app, params.key))
    .post("/join/:key", ({ params, body, request, server }) => join(app, params.key, body, secureCookies(app, request, server), clientOf(app, request, server).address))
    .post("/join/:key/", ({ params, body, request, server }) => join(app, params.key, body, secureCookies(app, request, server), clientOf(app, request, server).address));

type Found = { invite: InviteRow; inviter: string | null };

/** The invitation behind a link, or the page saying why it cannot be used. */
async function inviteOrPage(app: App, key: string): Promise<Found | Response> {
  try {
    return await describeInvite(app, key);
  } catch (e) {
    if (e instanceof InviteLinkError) return linkErrorPage(e);
    throw e;
  }
}

async function showJoin(app: App, key: string): Promise<Response> {
  const invite = await inviteOrPage(app, key);
  return invite instanceof Response ? invite : signUpPage(app, invite);
}

async function join(app: App, key: string, body: unknown, secure: boolean, address: string): Promise<Response> {
  const raw = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const field = (name: string) => (typeof raw[name] === "string" ? (raw[name] as string) : "");
  const form = { email: field("email").trim(), full_name: field("full_name"), password: field("password") };
  let created;
  try {
    created = await redeemInvite(app, key, { email: form.email, fullName: form.full_name, password: form.password });
  } catch (e) {
    if (e instanceof InviteLinkError) return linkErrorPage(e);
    if (!(e instanceof ZulipError)) throw e;
    // the form again, with the reason (and the invitation as it stands now)
    const found = await inviteOrPage(app, key);
    return found instanceof Response ? found : signUpPage(app, found, form, e.message, 400);
  }
  const session = await logIn(app, created.email, form.password, address);
  const headers = new Headers({ location: "/", "cache-control": "no-store" });
  headers.append("set-cookie", cookie(SESSION_COOKIE, session.token, SESSION_SECONDS, { httpOnly: true, secure }));
  headers.append("set-cookie", cookie(CSRF_COOKIE, session.csrf, SESSION_SECONDS, { httpOnly: false, secure }));
  return new Response(null, { status: 303, headers });
}
