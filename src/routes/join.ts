import { Elysia } from "elysia";
import type { App } from "../app";
import { InviteLinkError, redeemInvite, usableInvite } from "../actions/join";
import { logIn, SESSION_SECONDS } from "../actions/sessions";
import { ZulipError } from "../errors";
import { CSRF_COOKIE, SESSION_COOKIE } from "../http/auth";
import { cookie, secureCookies } from "../http/cookies";
import { clientOf } from "../http/client-address";
import { realmOf } from "../app";
import { escapeHtml as escape, htmlPage } from "./html-page";

/**
 * Redeeming an invitation link, outside /api/v1: GET /join/{key}/ serves a small sign-up page,
 * POST /join/{key}/ (email, full_name, password) creates the account, logs it in and sends the
 * browser to the web client. Unknown links are 404 pages, revoked or expired ones 410.
 */

function signUpPage(app: App, key: string, form: { email?: string; full_name?: string } = {}, error?: string, status = 200): Response {
  const realm = realmOf(app);
  return htmlPage(
    `Join ${realm.name}`,
    `<p>You have been invited to join <strong>${escape(realm.name)}</strong>.</p>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ""}
<form method="post" action="/join/${escape(key)}/">
<label for="email">Email</label><input id="email" name="email" type="email" required value="${escape(form.email ?? "")}">
<label for="full_name">Full name</label><input id="full_name" name="full_name" required value="${escape(form.full_name ?? "")}">
<label for="password">Password</label><input id="password" name="password" type="password" required>
<button type="submit">Sign up</button>
</form>`,
    status,
  );
}

const linkErrorPage = (e: InviteLinkError) => htmlPage(e.status === 404 ? "Invitation not found" : "Invitation no longer valid", `<p>${escape(e.message)}</p>`, e.status);

export const joinRoutes = (app: App) =>
  new Elysia()
    .get("/join/:key", ({ params }) => showJoin(app, params.key))
    .get("/join/:key/", ({ params }) => showJoin(app, params.key))
    .post("/join/:key", ({ params, body, request, server }) => join(app, params.key, body, secureCookies(app, request, server), clientOf(app, request, server).address))
    .post("/join/:key/", ({ params, body, request, server }) => join(app, params.key, body, secureCookies(app, request, server), clientOf(app, request, server).address));

async function showJoin(app: App, key: string): Promise<Response> {
  try {
    await usableInvite(app, key);
  } catch (e) {
    if (e instanceof InviteLinkError) return linkErrorPage(e);
    throw e;
  }
  return signUpPage(app, key);
}

async function join(app: App, key: string, body: unknown, secure: boolean, address: string): Promise<Response> {
  const raw = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const field = (name: string) => (typeof raw[name] === "string" ? (raw[name] as string) : "");
  const form = { email: field("email").trim(), full_name: field("full_name"), password: field("password") };
  try {
    await redeemInvite(app, key, { email: form.email, fullName: form.full_name, password: form.password });
  } catch (e) {
    if (e instanceof InviteLinkError) return linkErrorPage(e);
    if (e instanceof ZulipError) return signUpPage(app, key, form, e.message, 400);
    throw e;
  }
  const session = await logIn(app, form.email, form.password, address);
  const headers = new Headers({ location: "/", "cache-control": "no-store" });
  headers.append("set-cookie", cookie(SESSION_COOKIE, session.token, SESSION_SECONDS, { httpOnly: true, secure }));
  headers.append("set-cookie", cookie(CSRF_COOKIE, session.csrf, SESSION_SECONDS, { httpOnly: false, secure }));
  return new Response(null, { status: 303, headers });
}
