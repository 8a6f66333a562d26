// Who is asking: the one place that decides a request's client address (for rate limits, logs and
// anything else that keys on the caller) and whether it came over HTTPS (for cookies).
//
// A reverse proxy connects to Parley itself, so the socket's peer is the proxy. Only when that peer is
// listed in `[server] trusted_proxies` are its X-Forwarded-For and X-Forwarded-Proto headers believed;
// from anyone else they are ignored, since any client can write them.
import type { App } from "../app";
import { AddressSet, isAddress, plainAddress } from "../lib/ip";

export interface Client {
  /** the caller's IP address; "local" for a request with no socket (tests through app.handle) */
  address: string;
  /** true when the caller's connection is HTTPS: Parley's own TLS, or a trusted proxy saying so */
  https: boolean;
}

/** What of a request decides its client: the socket's peer and the two headers. */
export interface ClientEvidence {
  peer: string | null;
  forwardedFor: string | null;
  forwardedProto: string | null;
  /** Parley itself serves HTTPS */
  tls: boolean;
}

/**
 * The client from the evidence. The peer, unless it is a trusted proxy; then X-Forwarded-For is read
 * from the right (each proxy appends the address it saw) and the first address that is not a trusted
 * proxy is the client: the entries left of it were written by the client and prove nothing. If every
 * entry is a trusted proxy, the left-most is the client. An entry that is not an IP address ends the
 * walk at the last address a trusted proxy vouched for.
 */
export function resolveClient(e: ClientEvidence, trusted: AddressSet): Client {
  const peer = e.peer ? plainAddress(e.peer) : null;
  if (!peer || !trusted.has(peer)) return { address: peer ?? "local", https: e.tls };
  let address = peer;
  if (e.forwardedFor) {
    const hops = e.forwardedFor.split(",");
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!.trim();
      if (!isAddress(hop)) break;
      address = plainAddress(hop);
      if (!trusted.has(address)) break;
    }
  }
  // the nearest proxy's word: the last value (a proxy that appends puts its own last)
  const proto = e.forwardedProto?.split(",").pop()?.trim().toLowerCase();
  return { address, https: proto === "https" ? true : proto === "http" ? false : e.tls };
}

/** The trusted proxies of an app's config, parsed once. */
function trustedOf(app: App): AddressSet {
  let set = trustedCache.get(app);
  if (!set) {
    set = new AddressSet(app.config.server.trusted_proxies);
    trustedCache.set(app, set);
  }
  return set;
}
const trustedCache = new WeakMap<App, AddressSet>();
const clients = new WeakMap<Request, Client>();

/** The socket side of Bun's server, as far as this needs it (Elysia's `server`). */
export interface PeerSource {
  requestIP(request: Request): { address: string } | null;
}

/**
 * Where the socket of a request is found when the caller has none at hand (authentication, the
 * request log): the server the app listens with (server.ts registers it). Any of Bun's servers
 * answers requestIP for any request it received, so one per app is enough.
 */
export function peersOf(app: App, source: () => PeerSource | null | undefined): void {
  peerSources.set(app, source);
}
const peerSources = new WeakMap<App, () => PeerSource | null | undefined>();

/**
 * The client of a request, worked out the first time something asks (a rate limit, a failed login,
 * the request log) and remembered: most requests never ask, so most never pay for it.
 */
export function clientOf(app: App, request: Request, server: PeerSource | null | undefined): Client {
  let c = clients.get(request);
  if (!c) {
    const socket = server ?? peerSources.get(app)?.();
    let peer: string | null = null;
    try {
      peer = socket?.requestIP(request)?.address ?? null;
    } catch {} // a request that did not come through this server's socket (built by hand) has no peer
    const trusted = trustedOf(app);
    const tls = app.config.server.tls_cert !== "";
    // with no trusted proxy the headers are never read
    c =
      trusted.size === 0
        ? { address: peer ? plainAddress(peer) : "local", https: tls }
        : resolveClient({ peer, forwardedFor: request.headers.get("x-forwarded-for"), forwardedProto: request.headers.get("x-forwarded-proto"), tls }, trusted);
    clients.set(request, c);
  }
  return c;
}
