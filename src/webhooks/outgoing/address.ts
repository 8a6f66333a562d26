import { lookup } from "node:dns/promises";
import { AddressSet, isAddress, plainAddress } from "../../lib/ip";

/** Loopback, private, link-local, carrier-grade NAT, unspecified and multicast ranges: never reached on a user's say-so. */
const PRIVATE = new AddressSet([
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "224.0.0.0/3",
  "::/128",
  "::1/128",
  "fc00::/7",
  "fe80::/10",
  "ff00::/8",
  "64:ff9b::/96",
]);

export const isPrivateAddress = (address: string) => PRIVATE.has(plainAddress(address));

/**
 * Whether a URL may be POSTed to: http(s) only, and (unless private addresses are allowed) every
 * address its host resolves to now must be public. Returns the refusal, or null.
 */
export async function urlRefusal(url: string, allowPrivate: boolean): Promise<string | null> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "invalid URL";
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return "not an http(s) URL";
  if (allowPrivate) return null;
  const host = u.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isAddress(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true })).map((a) => a.address);
    } catch {
      return null; // unresolvable: the request fails as a connection error, and is retried
    }
  }
  return addresses.some(isPrivateAddress) ? "private address" : null;
}
