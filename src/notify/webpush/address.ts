/**
 * Where Parley may send a push: a subscription's endpoint is a URL a user supplied, so without care it
 * would make the server post to its own loopback or the LAN behind it (SSRF). Only https on a public
 * address is allowed, unless [push] allow_insecure_web_push (tests, LAN experiments).
 */
import { AddressSet, isAddress, plainAddress } from "../../lib/ip";

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

/**
 * Why Parley will not push to `endpoint`, or null when it may (the literal URL; the names it resolves to
 * are checked again at send time, see send.ts).
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
