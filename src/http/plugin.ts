import { Elysia } from "elysia";
import type { App } from "../app";
import type { UserRow } from "../store/users";
import { rateLimitHit } from "../errors";
import { RateLimiter } from "../lib/rate-limiter";
import { authenticate, sessionToken } from "./auth";
import { clientOf } from "./client-address";
import { Params } from "./params";

/** Query string and body merged the Zulip way: the body wins, every method may carry either. */
export function collectParams(query: Record<string, unknown> | undefined, body: unknown): Params {
  // no prototype: a field named __proto__ is a parameter like any other (reported as ignored), not
  // raw's prototype
  const raw: Record<string, unknown> = Object.assign(Object.create(null), query);
  if (body && typeof body === "object" && !(body instanceof ArrayBuffer) && !(body instanceof Blob)) {
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      if (v === undefined) continue;
      raw[k] = typeof v === "object" && v !== null && !(v instanceof File) ? JSON.stringify(v) : typeof v === "number" || typeof v === "boolean" ? String(v) : v;
    }
  }
  return new Params(raw);
}

type Headers = Record<string, string | number>;

/** Per-user and per-IP limits (config [rate_limit]); every counted response carries X-RateLimit-* headers. */
function limiters(app: App) {
  const cached = limiterCache.get(app);
  if (cached) return cached;
  const now = () => app.clock.now();
  const l = {
    user: new RateLimiter(app.config.rate_limit.requests_per_minute, 60_000, now),
    ip: new RateLimiter(app.config.rate_limit.unauthenticated_per_minute, 60_000, now),
  };
  limiterCache.set(app, l);
  return l;
}
const limiterCache = new WeakMap<App, { user: RateLimiter; ip: RateLimiter }>();

export function checkRate(limiter: RateLimiter, key: string, headers: Headers): void {
  if (limiter.limit <= 0) return;
  const r = limiter.hit(key);
  headers["x-ratelimit-limit"] = String(limiter.limit);
  headers["x-ratelimit-remaining"] = String(r.remaining);
  headers["x-ratelimit-reset"] = String(Math.ceil(r.resetMs / 1000));
  if (!r.allowed) {
    throw rateLimitHit(Math.max(0, r.retryAfterMs / 1000), {
      "X-RateLimit-Limit": String(limiter.limit),
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String(Math.ceil(r.resetMs / 1000)),
    });
  }
}

/** Counts a request against the user's limit (routes that authenticate on their own, as webhooks do). */
export const limitUser = (app: App, userId: number, headers: Headers) => checkRate(limiters(app).user, `user:${userId}`, headers);

/**
 * The toolkit every route file uses: `args` (the request's Zulip parameters) and the `auth` macro,
 * whose resolve adds `me`, the authenticated user.
 */
export function zulip(app: App) {
  return new Elysia({ name: "zulip-toolkit" })
    .derive({ as: "global" }, ({ query, body }) => ({ args: collectParams(query, body) }))
    .macro({
      auth: {
        async resolve({ request, set }) {
          const me = await authenticate(app, request);
          checkRate(limiters(app).user, `user:${me.id}`, set.headers as Headers);
          return { me: me as UserRow };
        },
      },
      /**
       * Endpoints open to spectators: `me` is the user when credentials came, else null (counted
       * against the caller's IP address). The action decides what a spectator may see.
       */
      optionalAuth: {
        async resolve({ request, set, server }) {
          if (!request.headers.get("authorization") && !sessionToken(request)) {
            checkRate(limiters(app).ip, `ip:${clientOf(app, request, server).address}`, set.headers as Headers);
            return { me: null as UserRow | null };
          }
          const me = await authenticate(app, request);
          checkRate(limiters(app).user, `user:${me.id}`, set.headers as Headers);
          return { me: me as UserRow | null };
        },
      },
      /** Unauthenticated endpoints count against the caller's IP address. */
      anonymousLimit: {
        beforeHandle({ request, set, server }) {
          checkRate(limiters(app).ip, `ip:${clientOf(app, request, server).address}`, set.headers as Headers);
        },
      },
    });
}
