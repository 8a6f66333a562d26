/**
 * One push to one browser: web-push (the maintained library) encrypts the payload (aes128gcm, RFC 8291)
 * and signs the VAPID JWT (RFC 8292); the request itself goes out through lib/outbound-http.ts, so that
 * the address it connects to is the one checked and a redirect is an answer, never followed.
 */
import type WebPush from "web-push";
import { OutboundError, outboundRequest } from "../../lib/outbound-http";
import { endpointRefusal } from "./address";
import type { VapidKeys } from "./vapid";

export type SendOutcome =
  | { kind: "sent"; status: number }
  /** the push service says the subscription is no more (404, 410): delete it */
  | { kind: "gone"; status: number }
  /** worth another try later (5xx, 429, network); `retryAfterSecs` when the service said */
  | { kind: "retry"; reason: string; retryAfterSecs?: number }
  /** never worth another try (refused address, a redirect, another 4xx) */
  | { kind: "fail"; reason: string };

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface SendOptions {
  vapid: VapidKeys;
  /** the JWT's `sub`: a mailto: or https: URL for the push service to contact the operator */
  subject: string;
  allowInsecure: boolean;
  /** RFC 8030 Topic: a push service keeps only the newest undelivered push with it */
  topic?: string;
  ttlSecs?: number;
  timeoutMs?: number;
  /** the server is stopping: the request is abandoned (and retried after the restart) */
  signal?: AbortSignal;
}

function retryAfter(value: string | string[] | undefined): number | undefined {
  const n = Number(Array.isArray(value) ? value[0] : value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** web-push and its dependencies (~10 ms of start-up) load with the first push. */
let loading: Promise<typeof WebPush> | null = null;

export async function sendWebPush(target: PushTarget, payload: string, o: SendOptions): Promise<SendOutcome> {
  const refusal = endpointRefusal(target.endpoint, o.allowInsecure);
  if (refusal) return { kind: "fail", reason: refusal };
  if (o.signal?.aborted) return { kind: "retry", reason: "the server is stopping" };
  const webpush = await (loading ??= import("web-push").then((m) => (m.default ?? m) as typeof WebPush));
  let details: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    details = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
      vapidDetails: { subject: o.subject, publicKey: o.vapid.publicKey, privateKey: o.vapid.privateKey },
      TTL: o.ttlSecs ?? 24 * 3600,
      topic: o.topic,
      urgency: "high",
    });
  } catch (e) {
    return Promise.resolve({ kind: "fail", reason: `cannot encrypt for this subscription: ${(e as Error).message}` });
  }
  return outboundRequest({
    url: details.endpoint,
    method: details.method,
    headers: details.headers as Record<string, string>,
    body: details.body ?? undefined,
    timeoutMs: o.timeoutMs ?? 15_000,
    signal: o.signal,
    // the body is not needed: a push service's answer is its status
    maxBytes: 4096,
    allowPrivate: o.allowInsecure,
  }).then(
    ({ status, headers }): SendOutcome => {
      if (status >= 200 && status < 300) return { kind: "sent", status };
      if (status === 404 || status === 410) return { kind: "gone", status };
      if (status === 429 || status >= 500) return { kind: "retry", reason: `push service answered ${status}`, retryAfterSecs: retryAfter(headers["retry-after"]) };
      if (status >= 300 && status < 400) return { kind: "fail", reason: `push service answered ${status} (a redirect, not followed)` };
      return { kind: "fail", reason: `push service answered ${status}` };
    },
    (e: OutboundError): SendOutcome => {
      if (e.kind === "refused") return { kind: "fail", reason: e.message };
      if (e.kind === "aborted") return { kind: "retry", reason: "cannot reach the push service: the server is stopping" };
      return { kind: "retry", reason: `cannot reach the push service: ${e.kind === "timeout" ? "timed out" : e.message}` };
    },
  );
}
