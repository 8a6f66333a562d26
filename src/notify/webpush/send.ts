/**
 * One push to one browser: web-push (the maintained library) encrypts the payload (aes128gcm, RFC 8291)
 * and signs the VAPID JWT (RFC 8292); the request itself goes out here, so that the address it connects
 * to is the one checked (the name is resolved once, inside the connection's own lookup: no DNS
 * rebinding between check and use) and a redirect is an answer, never followed.
 */
import { lookup as dnsLookup } from "node:dns";
import http from "node:http";
import https from "node:https";
import webpush from "web-push";
import { endpointRefusal, hostOf, isPublicAddress } from "./address";
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

type LookupCallback = (err: Error | null, address?: string | { address: string; family: number }[], family?: number) => void;

/**
 * dns.lookup refusing names that lead to any non-public address: the check sits in the connection's own
 * lookup. `refused` hears why, so the failure is told apart from a network error.
 */
const publicOnlyLookup =
  (refused: (reason: string) => void) =>
  (hostname: string, options: unknown, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true }, (err, addresses) => {
      if (err) return callback(err);
      const bad = addresses.find((a) => !isPublicAddress(a.address));
      if (bad || addresses.length === 0) {
        const reason = `${hostname} resolves to ${bad?.address ?? "nothing"}, not a public address`;
        refused(reason);
        return callback(new Error(reason));
      }
      if ((options as { all?: boolean } | null)?.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };

function retryAfter(value: string | string[] | undefined): number | undefined {
  const n = Number(Array.isArray(value) ? value[0] : value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

export function sendWebPush(target: PushTarget, payload: string, o: SendOptions): Promise<SendOutcome> {
  const refusal = endpointRefusal(target.endpoint, o.allowInsecure);
  if (refusal) return Promise.resolve({ kind: "fail", reason: refusal });
  if (o.signal?.aborted) return Promise.resolve({ kind: "retry", reason: "the server is stopping" });
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
  const url = new URL(details.endpoint);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let refusedBecause: string | null = null;
    const req = client.request(
      {
        method: details.method,
        protocol: url.protocol,
        hostname: hostOf(url),
        port: url.port || undefined,
        path: url.pathname + url.search,
        headers: details.headers as Record<string, string>,
        timeout: o.timeoutMs ?? 15_000,
        ...(o.allowInsecure ? {} : { lookup: publicOnlyLookup((r) => (refusedBecause = r)) as unknown as typeof dnsLookup }),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // the body is not needed; reading it frees the connection
        res.resume();
        if (status >= 200 && status < 300) resolve({ kind: "sent", status });
        else if (status === 404 || status === 410) resolve({ kind: "gone", status });
        else if (status === 429 || status >= 500) resolve({ kind: "retry", reason: `push service answered ${status}`, retryAfterSecs: retryAfter(res.headers["retry-after"]) });
        else if (status >= 300 && status < 400) resolve({ kind: "fail", reason: `push service answered ${status} (a redirect, not followed)` });
        else resolve({ kind: "fail", reason: `push service answered ${status}` });
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    o.signal?.addEventListener("abort", () => req.destroy(new Error("the server is stopping")), { once: true });
    req.on("error", (e) => {
      if (refusedBecause) resolve({ kind: "fail", reason: refusedBecause });
      else resolve({ kind: "retry", reason: `cannot reach the push service: ${e.message}` });
    });
    req.end(details.body ?? undefined);
  });
}
