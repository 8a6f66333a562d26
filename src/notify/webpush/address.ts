/**
 * Where Parley may send a push: a subscription's endpoint is a URL a user supplied, so without care it
 * would make the server post to its own loopback or the LAN behind it (SSRF). Only https on a public
 * address is allowed, unless [push] allow_insecure_web_push (tests, LAN experiments).
 */
import { isAddress } from "../../lib/ip";
import { hostOf, isPublicAddress } from "../../lib/outbound-http";

/**
 * Why Parley will not push to `endpoint`, or null when it may (the literal URL; the names it resolves to
 * are checked again at send time, in lib/outbound-http.ts).
 */
export function endpointRefusal(endpoint: string, allowInsecure: boolean): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "Invalid endpoint: not a URL";
  }
  if (url.protocol !== "https:" && !(allowInsecure && url.protocol === "http:")) return "Invalid endpoint: it must be an https URL";
  if (url.username || url.password) return "Invalid endpoint: it must not hold a user name or password";
  const host = hostOf(url);
  if (!allowInsecure && isAddress(host) && !isPublicAddress(host)) return "Invalid endpoint: not a public address";
  return null;
}
