import { Elysia } from "elysia";
import type { App } from "../app";
import type { UserRow } from "../store/users";
import { authenticate } from "./auth";
import { Params } from "./params";

/** Query string and body merged the Zulip way: the body wins, every method may carry either. */
export function collectParams(query: Record<string, unknown> | undefined, body: unknown): Params {
  const raw: Record<string, unknown> = { ...(query ?? {}) };
  if (body && typeof body === "object" && !(body instanceof ArrayBuffer) && !(body instanceof Blob)) {
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      if (v === undefined) continue;
      raw[k] = typeof v === "object" && v !== null && !(v instanceof File) ? JSON.stringify(v) : typeof v === "number" || typeof v === "boolean" ? String(v) : v;
    }
  }
  return new Params(raw);
}

/**
 * The toolkit every route file uses: `args` (the request's Zulip parameters) and the `auth` macro,
 * whose resolve adds `me`, the authenticated user.
 */
export function zulip(app: App) {
  return new Elysia({ name: "zulip-toolkit" })
    .derive({ as: "global" }, ({ query, body }) => ({ args: collectParams(query, body) }))
    .macro({
      auth: {
        async resolve({ request }) {
          return { me: (await authenticate(app, request)) as UserRow };
        },
      },
    });
}
