/** The socket side of Bun's server, as far as this needs it (Elysia's `server`). */
interface PeerSource {
  requestIP(request: Request): { address: string } | null;
}

const addresses = new WeakMap<Request, string>();

/** Notes who sent `request`: server.ts does, first thing, while Elysia hands its hook the server. */
export function noteClientAddress(request: Request, server: PeerSource | null | undefined): void {
  let address: string | undefined;
  try {
    address = server?.requestIP(request)?.address;
  } catch {} // a request built by hand, not read from this server's socket, has no peer
  if (address) addresses.set(request, address);
}

/**
 * The client address of a request, as the rate limiter reads it: the socket's peer, or "local" for a
 * request with no socket (tests through app.handle). The one place that says who is asking.
 */
export function clientAddress(request: Request): string {
  return addresses.get(request) ?? "local";
}
