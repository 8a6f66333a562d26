import { Elysia } from "elysia";
import type { App } from "../app";
import { DeadLinkError, passwordResetTarget, requestPasswordReset, resetPassword, RESET_LINK_SECONDS } from "../actions/password-reset";
import { confirmEmailChange, pendingEmailChange } from "../actions/email-change";
import { SESSION_SECONDS } from "../actions/sessions";
import { unsubscribeFromMissedMessages, unsubscribeTarget } from "../notify/unsubscribe";
import { ZulipError } from "../errors";
import { CSRF_COOKIE, SESSION_COOKIE } from "../http/auth";
import { cookie, secureCookies } from "../http/cookies";
import { clientOf } from "../http/client-address";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../domain/validate";
import { escapeHtml as e } from "./html-page";
import { webAssets } from "../web/assets";
import { loadWebBuild } from "../web/source";

/**
 * The pages links in emails open (Zulip's URLs): forgotten password, a new email address's
 * confirmation, one-click unsubscribe. Each GET only shows; a POST does the thing.
 */

const field = (body: unknown, name: string) => {
  const v = body && typeof body === "object" ? (body as Record<string, unknown>)[name] : undefined;
  return typeof v === "string" ? v : "";
};

const RESET = "/accounts/password/reset/";

/** A page in the login page's card (its styles, both themes, the phone layout). */
async function htmlPage(app: App, title: string, main: string, status = 200): Promise<Response> {
  return webAssets(await loadWebBuild()).cardPage({ realmName: app.realm?.name ?? "Parley", title, main, status });
}

function resetRequestPage(app: App, error?: string, status = 200) {
  return htmlPage(
    app,
    "Forgot your password?",
    `<p>Enter the email address you log in with. We will send you a link to choose a new password.</p>
${error ? `<p class="login-error" role="alert">${e(error)}</p>` : ""}
<form method="post" action="${RESET}" class="login-form">
<label for="reset-email">Email</label><input id="reset-email" name="email" type="email" autocomplete="email" required autofocus>
<button type="submit">Send reset link</button>
</form>
<p class="login-forgot"><a href="/login">Back to log in</a></p>`,
    status,
  );
}

const deadLinkPage = (app: App) =>
  htmlPage(app, "Link expired or used", `<p>This link has expired or has already been used.</p><p><a href="${RESET}">Ask for a new password reset link</a> or <a href="/login">log in</a>.</p>`, 410);

function choosePasswordPage(app: App, token: string, email: string, error?: string, status = 200) {
  return htmlPage(
    app,
    "Choose a new password",
    `<p>For <strong>${e(email)}</strong>.</p>
${error ? `<p class="login-error" role="alert">${e(error)}</p>` : ""}
<form method="post" action="${RESET}${e(token)}/" class="login-form">
<input type="text" name="username" value="${e(email)}" autocomplete="username" hidden>
<label for="new-password">New password</label>
<input id="new-password" name="new_password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}" required autofocus>
<button type="submit">Set password and log in</button>
</form>`,
    status,
  );
}

const loggedIn = (session: { token: string; csrf: string }, secure: boolean) => {
  const headers = new Headers({ location: "/", "cache-control": "no-store" });
  headers.append("set-cookie", cookie(SESSION_COOKIE, session.token, SESSION_SECONDS, { httpOnly: true, secure }));
  headers.append("set-cookie", cookie(CSRF_COOKIE, session.csrf, SESSION_SECONDS, { httpOnly: false, secure }));
  return new Response(null, { status: 303, headers });
};

const badUnsubscribe = (app: App) => htmlPage(app, "Unknown link", "<p>This unsubscribe link is not valid. Change your email settings in Parley instead.</p>", 404);

export const accountPageRoutes = (app: App) =>
  new Elysia()
    .get(RESET, () => resetRequestPage(app))
    .post(RESET, async ({ body, request, server }) => {
      try {
        await requestPasswordReset(app, field(body, "email"), clientOf(app, request, server).address);
      } catch (err) {
        if (err instanceof ZulipError && err.code === "RATE_LIMIT_HIT") return resetRequestPage(app, "Too many reset requests. Try again later.", 429);
        throw err;
      }
      // the same answer whether or not the address has an account
      return htmlPage(
        app,
        "Check your email",
        `<p>If <strong>${e(field(body, "email").trim())}</strong> belongs to an account here, an email with a link to choose a new password is on its way. The link works once, for ${RESET_LINK_SECONDS / 60} minutes.</p><p class="login-forgot"><a href="/login">Back to log in</a></p>`,
      );
    })
    .get(`${RESET}:token/`, async ({ params }) => {
      const user = await passwordResetTarget(app, params.token);
      return user ? choosePasswordPage(app, params.token, user.delivery_email) : deadLinkPage(app);
    })
    .post(`${RESET}:token/`, async ({ params, body, request, server }) => {
      try {
        return loggedIn(await resetPassword(app, params.token, field(body, "new_password")), secureCookies(app, request, server));
      } catch (err) {
        if (err instanceof DeadLinkError) return deadLinkPage(app);
        const user = err instanceof ZulipError ? await passwordResetTarget(app, params.token) : null;
        if (user) return choosePasswordPage(app, params.token, user.delivery_email, (err as ZulipError).message, 400);
        throw err;
      }
    })
    .get("/accounts/confirm_new_email/:token/", async ({ params }) => {
      const pending = await pendingEmailChange(app, params.token);
      if (!pending) return htmlPage(app, "Link expired or used", "<p>This confirmation link has expired or has already been used.</p>", 410);
      return htmlPage(
        app,
        "Confirm your new email address",
        `<p>Change the email address of <strong>${e(pending.user.full_name)}</strong> from ${e(pending.user.delivery_email)} to <strong>${e(pending.email)}</strong>?</p>
<form method="post" action="/accounts/confirm_new_email/${e(params.token)}/" class="login-form"><button type="submit">Confirm</button></form>`,
      );
    })
    .post("/accounts/confirm_new_email/:token/", async ({ params }) => {
      const done = await confirmEmailChange(app, params.token);
      if (!done) return htmlPage(app, "Link expired or used", "<p>This confirmation link has expired or has already been used.</p>", 410);
      return htmlPage(app, "Email address changed", `<p>You now log in with <strong>${e(done.email)}</strong>.</p><p><a href="/">Open Parley</a></p>`);
    })
    .get("/accounts/unsubscribe/missed_messages/:token", async ({ params }) => {
      const user = await unsubscribeTarget(app, params.token);
      if (!user) return badUnsubscribe(app);
      return htmlPage(
        app,
        "Stop missed-message emails?",
        `<p>${e(user.delivery_email)} will no longer get emails about messages that arrive while away. You can turn them back on in Settings → Notifications.</p>
<form method="post" action="/accounts/unsubscribe/missed_messages/${e(params.token)}" class="login-form"><button type="submit">Unsubscribe</button></form>`,
      );
    })
    // RFC 8058: mail clients POST "List-Unsubscribe=One-Click" here without cookies or a page
    .post("/accounts/unsubscribe/missed_messages/:token", async ({ params }) => {
      const user = await unsubscribeFromMissedMessages(app, params.token);
      if (!user) return badUnsubscribe(app);
      return htmlPage(app, "Unsubscribed", `<p>${e(user.delivery_email)} gets no more missed-message emails. Turn them back on in Settings → Notifications.</p>`);
    });
