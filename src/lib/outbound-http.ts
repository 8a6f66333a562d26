/**
 * One HTTP request to a URL a user supplied (push endpoints, outgoing webhooks, an import's downloads).
 * Without care it would make the server reach its own loopback or the LAN behind it (SSRF), so unless
 * `allowPrivate`, a literal IP host must be public and a name is resolved once, inside the connection's
 * own lookup, where every address it leads to must be public: no DNS rebinding between check and use.
 * A redirect is returned as the answer, never followed (the caller may check and follow it).
 */
import { lookup as dnsLookup } from "node:dns";
import type http from "node:http";
import { AddressSet, isAddress, plainAddress } from "./ip";

/** Addresses that are not on the public internet (IANA special-purpose registries, RFC 6890). */
const NOT_PUBLIC = new AddressSet([
  "0.0.0.0/8", // "this network", unspecified
  "10.0.0.0/8", // private
  "100.64.0.0/10", // CGNAT (shared address space)
  "127.0.0.0/8", // loopback
  "169.254.0.0/16", // link-local
  "172.16.0.0/12", // private
  "192.0.0.0/24", // IETF protocol assignments
  "192.0.2.0/24", // documentation
  "192.168.0.0/16", // private
  "198.18.0.0/15", // benchmarking
  "198.51.100.0/24", // documentation
  "203.0.113.0/24", // documentation
  "224.0.0.0/4", // multicast
  "240.0.0.0/4", // reserved, and the broadcast address
  "::/128", // unspecified
  "::1/128", // loopback
  "::/96", // IPv4-compatible (deprecated)
  "64:ff9b::/96", // NAT64: may lead to any IPv4 address
  "64:ff9b:1::/48", // local NAT64
  "100::/64", // discard
  "2001:db8::/32", // documentation
  "2002::/16", // 6to4: embeds an IPv4 address
  "fc00::/7", // unique-local
  "fe80::/10", // link-local
  "fec0::/10", // site-local (deprecated)
  "ff00::/8", // multicast
]);

/** True for an address on the public internet (an IPv4-mapped IPv6 address is judged as its IPv4 one). */
export const isPublicAddress = (address: string): boolean => isAddress(address) && !NOT_PUBLIC.has(plainAddress(address));

/** A URL's host without IPv6 brackets. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, "$1");

export interface OutboundRequest {
  url: string | URL;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** the whole request, connection to last byte read */
  timeoutMs: number;
  signal?: AbortSignal;
  /** the most of the answer's body read; more is cut off (`truncated`) and the connection dropped */
  maxBytes: number;
  /** tests, LAN set-ups: loopback and private addresses may be reached */
  allowPrivate?: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
}

/** Why a request got no answer: `refused` (not a public address, not http(s)) is never worth another try. */
export class OutboundError extends Error {
  constructor(
    readonly kind: "refused" | "timeout" | "aborted" | "network",
    message: string,
  ) {
    super(message);
  }
}

type LookupCallback = (err: Error | null, address?: string | { address: string; family: number }[], family?: number) => void;

/** dns.lookup refusing names that lead to any non-public address; `refused` hears why. */
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

export function outboundRequest(o: OutboundRequest): Promise<OutboundResponse> {
  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    return Promise.reject(new OutboundError("refused", "not a URL"));
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return Promise.reject(new OutboundError("refused", `${url.protocol}// is not http(s)`));
  const host = hostOf(url);
  if (!o.allowPrivate && isAddress(host) && !isPublicAddress(host)) return Promise.reject(new OutboundError("refused", `${host} is not a public address`));
  if (o.signal?.aborted) return Promise.reject(new OutboundError("aborted", "aborted"));
  // node:http and node:https cost ~10 ms of start-up to load: only a server that sends something pays it
  const client = url.protocol === "https:" ? import("node:https") : import("node:http");
  return client.then((c) => send(c.default, url, host, o));
}

function send(client: Pick<typeof http, "request">, url: URL, host: string, o: OutboundRequest): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    let failure: OutboundError | null = null;
    const fail = (e: OutboundError) => {
      failure ??= e;
      req.destroy(e);
    };
    const req = client.request(
      {
        method: o.method ?? "GET",
        protocol: url.protocol,
        hostname: host,
        port: url.port || undefined,
        path: url.pathname + url.search,
        headers: o.headers,
        ...(o.allowPrivate ? {} : { lookup: publicOnlyLookup((r) => (failure ??= new OutboundError("refused", r))) as unknown as typeof dnsLookup }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = (truncated: boolean) => {
          finish();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated });
        };
        res.on("data", (chunk: Buffer) => {
          if (size + chunk.length > o.maxBytes) {
            chunks.push(chunk.subarray(0, o.maxBytes - size));
            done(true);
            req.destroy();
            return;
          }
          size += chunk.length;
          chunks.push(chunk);
        });
        // a connection cut mid-body must not pass for a whole answer
        res.on("end", () => (res.complete ? done(false) : settle(new Error("the answer was cut short"))));
        res.on("error", (e) => settle(e));
      },
    );
    const timer = setTimeout(() => fail(new OutboundError("timeout", `timed out after ${o.timeoutMs} ms`)), o.timeoutMs);
    const onAbort = () => fail(new OutboundError("aborted", "aborted"));
    o.signal?.addEventListener("abort", onAbort, { once: true });
    const finish = () => {
      clearTimeout(timer);
      o.signal?.removeEventListener("abort", onAbort);
    };
    const settle = (e: Error) => {
      finish();
      reject(failure ?? new OutboundError("network", e.message));
    };
    req.on("error", settle);
    req.end(o.body);
  });
}
