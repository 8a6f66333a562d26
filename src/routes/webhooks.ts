import { Elysia } from "elysia";
import type { App } from "../app";
import { answersLikeSlack, receiveWebhook } from "../actions/webhooks";
import { limitUser } from "../http/plugin";
import { authenticateWebhook } from "../http/webhook-auth";
import { ZulipError } from "../errors";

/** The URL's parameters, then a form body's fields over them (Zulip reads both); no prototype. */
function webhookParams(url: URL, contentType: string, body: string): Record<string, string | undefined> {
  const params: Record<string, string | undefined> = Object.create(null);
  for (const [k, v] of url.searchParams) params[k] = v;
  if (/^application\/x-www-form-urlencoded\b/i.test(contentType)) for (const [k, v] of new URLSearchParams(body)) params[k] = v;
  return params;
}

/**
 * Incoming webhooks at Zulip's URLs: POST /api/v1/external/<integration>?api_key=…&stream=…&topic=….
 * Only under /api/v1 (tools hold an API key, never a browser session).
 */
export const webhookRoutes = (app: App) =>
  new Elysia({ prefix: "/api/v1" }).post(
    "/external/:integration",
    async ({ params, request, set }) => {
      const contentType = request.headers.get("content-type") ?? "";
      const body = await request.text();
      const args = webhookParams(new URL(request.url), contentType, body);
      const sender = await authenticateWebhook(app, request, args.api_key);
      limitUser(app, sender.id, set.headers as Record<string, string>);
      const slack = answersLikeSlack(params.integration);
      try {
        await receiveWebhook(app, sender, { integration: params.integration, body, contentType, headers: request.headers, params: args });
      } catch (e) {
        // Zulip answers an unsupported event with status 200 and an error envelope (the tool must not retry);
        // the framework's error hook would turn a 200 into a 500, so it is answered here.
        if (e instanceof ZulipError && e.httpStatus === 200) return { result: "error", msg: e.message, code: e.code, ...e.data };
        // Slack's tools read `ok` and `error` (Zulip's slack_error_handler), past the key's check
        if (slack && e instanceof ZulipError) {
          set.status = e.httpStatus;
          return { ok: false, error: e.message };
        }
        throw e;
      }
      return slack ? { result: "success", msg: "", ok: true } : { result: "success", msg: "" };
    },
    { parse: "none" },
  );
