import { Elysia } from "elysia";
import type { App } from "../app";
import { SESSION_SECONDS } from "../actions/sessions";
import { useLoginLink } from "../actions/login-links";
import { CSRF_COOKIE, SESSION_COOKIE } from "../http/auth";
import { cookie, secureCookies } from "../http/cookies";
import { SECURITY_HEADERS } from "../web/assets";

const redirect = (to: string, cookies: string[] = []) => {
  const headers = new Headers({ location: to, ...SECURITY_HEADERS });
  for (const c of cookies) headers.append("set-cookie", c);
  return new Response(null, { status: 303, headers });
};

/** GET /accounts/login/link/TOKEN: a one-time login link signs its person in and opens the app; a bad link goes to the login page. */
export const loginLinkRoutes = (app: App) =>
  new Elysia().get("/accounts/login/link/:token", async ({ params, request, server }) => {
    const s = await useLoginLink(app, params.token);
    if (!s) return redirect("/?login_failed=1");
    const secure = secureCookies(app, request, server);
    return redirect("/", [cookie(SESSION_COOKIE, s.token, SESSION_SECONDS, { httpOnly: true, secure }), cookie(CSRF_COOKIE, s.csrf, SESSION_SECONDS, { httpOnly: false, secure })]);
  });
