import { Elysia } from "elysia";
import type { App } from "../app";
import { logIn, logOut, SESSION_SECONDS } from "../actions/sessions";
import { CSRF_COOKIE, SESSION_COOKIE, sessionToken, sessionUser } from "../http/auth";
import { clientOf } from "../http/client-address";
import { ZulipError } from "../errors";
import { SECURITY_HEADERS, webAssets } from "../web/assets";
import { loadWebBuild } from "../web/source";
import { cookie, secureCookies } from "../http/cookies";

const redirect = (to: string, cookies: string[] = []) => {
  const headers = new Headers({ location: to, ...SECURITY_HEADERS });
  for (const c of cookies) headers.append("set-cookie", c);
  return new Response(null, { status: 303, headers });
};

/** Where to go after logging in: a view of the app (`#narrow/...`, from the login page's script), else the app. */
const nextView = (next: unknown) => (typeof next === "string" && /^#[^\s<>"]{0,2000}$/.test(next) ? next : "");

const assets = async () => webAssets(await loadWebBuild());

/** What the login page says after a failed attempt (?login_failed, or ?login_throttled=SECONDS). */
function loginError(url: URL): string | null {
  const wait = url.searchParams.get("login_throttled");
  // Zulip's words for its authentication rate limit
  if (wait && /^\d{1,6}$/.test(wait)) return `You're making too many attempts to sign in. Try again in ${wait} seconds or contact your organization administrator for help.`;
  return url.searchParams.has("login_failed") ? "Your email or password is incorrect." : null;
}

/**
 * The web app outside /api/v1: `/` is the app for a signed-in person and the login page for anyone else
 * (a plain form that works without JavaScript), its hashed files under /static/, and the cookie login.
 */
export const webRoutes = (app: App) =>
  new Elysia()
    .get("/", async ({ request }) => {
      const a = await assets();
      if (await sessionUser(app, request)) return a.appPage();
      const url = new URL(request.url);
      // the web app sends a page whose session ended (logged out elsewhere, deactivated) here
      const notice = url.searchParams.has("session_ended") ? "Your session ended. Please log in again." : null;
      return a.loginPage({ realmName: app.realm?.name ?? "Parley", error: loginError(url), notice });
    })
    .get("/login", async ({ request }) => {
      if (await sessionUser(app, request)) return redirect("/");
      return (await assets()).loginPage({ realmName: app.realm?.name ?? "Parley", error: null });
    })
    // the installable app: its service worker at the root (its scope is the whole app) and its manifest
    .get("/sw.js", async () => (await assets()).serviceWorker())
    .get("/manifest.webmanifest", async () => (await assets()).manifest(app.realm?.name ?? "Parley"))
    .get("/static/:name", async ({ params, request, set }) => {
      const res = (await assets()).file(params.name, request.headers.get("accept-encoding"));
      if (res) return res;
      set.status = 404;
      return "Not Found";
    })
    .post("/login", async ({ body, request, server }) => {
      const form = (body ?? {}) as Record<string, string>;
      const next = nextView(form.next);
      try {
        const s = await logIn(app, String(form.username ?? ""), String(form.password ?? ""), clientOf(app, request, server).address);
        const secure = secureCookies(app, request, server);
        return redirect(`/${next}`, [
          cookie(SESSION_COOKIE, s.token, SESSION_SECONDS, { httpOnly: true, secure }),
          cookie(CSRF_COOKIE, s.csrf, SESSION_SECONDS, { httpOnly: false, secure }),
        ]);
      } catch (e) {
        // throttled (login-throttle.ts): the page says how long to wait
        if (e instanceof ZulipError && e.code === "RATE_LIMIT_HIT") return redirect(`/?login_throttled=${Math.ceil(Number(e.data["retry-after"]))}${next}`);
        return redirect(`/?login_failed=1${next}`);
      }
    })
    .post("/logout", async ({ request, server }) => {
      const token = sessionToken(request);
      if (token) await logOut(app, token);
      const secure = secureCookies(app, request, server);
      return redirect("/", [cookie(SESSION_COOKIE, "", 0, { httpOnly: true, secure }), cookie(CSRF_COOKIE, "", 0, { httpOnly: false, secure })]);
    });
