import type { App } from "../app";
import { clientOf, type PeerSource } from "./client-address";

/**
 * A Set-Cookie value for the web client's cookies. Secure when the client's connection is HTTPS (Parley's
 * own TLS, or a trusted proxy's X-Forwarded-Proto), so the browser never sends it over plain HTTP.
 */
export function cookie(name: string, value: string, maxAge: number, o: { httpOnly: boolean; secure: boolean }): string {
  return `${name}=${value}; Path=/; Max-Age=${maxAge}; SameSite=Lax${o.httpOnly ? "; HttpOnly" : ""}${o.secure ? "; Secure" : ""}`;
}

/** Whether a request's cookies should be Secure. */
export const secureCookies = (app: App, request: Request, server: PeerSource | null | undefined) => clientOf(app, request, server).https;
