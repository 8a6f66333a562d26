import { Elysia } from "elysia";
import type { App } from "../app";
import { logIn, logOut, SESSION_SECONDS } from "../actions/sessions";
import { CSRF_COOKIE, SESSION_COOKIE, sessionToken } from "../http/auth";
import { ASSETS } from "../web/assets";

const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'self'; img-src 'self' https: data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
};

const redirect = (to: string, cookies: string[] = []) => {
  const headers = new Headers({ location: to });
  for (const c of cookies) headers.append("set-cookie", c);
  return new Response(null, { status: 303, headers });
};

const cookie = (name: string, value: string, maxAge: number, httpOnly: boolean) =>
  `${name}=${value}; Path=/; Max-Age=${maxAge}; SameSite=Lax${httpOnly ? "; HttpOnly" : ""}`;

/** The web client (static files from assets/) and its cookie login, outside /api/v1. */
export const webRoutes = (app: App) => {
  const routes = new Elysia();
  for (const [path, asset] of Object.entries(ASSETS)) {
    routes.get(path, () => new Response(asset.body, { headers: { "content-type": asset.type, "cache-control": "no-cache", ...SECURITY_HEADERS } }));
  }
  return routes
    .post("/login", async ({ body }) => {
      const form = (body ?? {}) as Record<string, string>;
      try {
        const s = await logIn(app, String(form.username ?? ""), String(form.password ?? ""));
        return redirect("/", [cookie(SESSION_COOKIE, s.token, SESSION_SECONDS, true), cookie(CSRF_COOKIE, s.csrf, SESSION_SECONDS, false)]);
      } catch {
        return redirect("/?login_failed=1");
      }
    })
    .post("/logout", async ({ request }) => {
      const token = sessionToken(request);
      if (token) await logOut(app, token);
      return redirect("/", [cookie(SESSION_COOKIE, "", 0, true), cookie(CSRF_COOKIE, "", 0, false)]);
    });
};
