// IP addresses and ranges (CIDR), on Node's BlockList.
import { BlockList, isIP } from "node:net";

/** "::ffff:192.0.2.1" (an IPv4 peer on a dual-stack socket) as "192.0.2.1"; other addresses unchanged. */
export function plainAddress(address: string): string {
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** True for an IPv4 or IPv6 address (no port, no brackets). */
export const isAddress = (text: string): boolean => isIP(text) !== 0;

/** A set of addresses and CIDR ranges, such as "10.0.0.0/8", "192.0.2.7", "fd00::/8". */
export class AddressSet {
  private readonly list = new BlockList();
  readonly size: number;

  /** Throws an Error naming the first entry that is neither an address nor a CIDR range. */
  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address, prefix, extra] = entry.trim().split("/");
      const family = isIP(address ?? "");
      const bits = family === 4 ? 32 : 128;
      if (!family || extra !== undefined || (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits))) {
        throw new Error(`'${entry}' is not an IP address or a CIDR range`);
      }
      const type = family === 4 ? "ipv4" : "ipv6";
      if (prefix === undefined) this.list.addAddress(address!, type);
      else this.list.addSubnet(address!, Number(prefix), type);
    }
    this.size = entries.length;
  }

  has(address: string): boolean {
    if (this.size === 0) return false;
    const family = isIP(address);
    if (!family) return false;
    const plain = plainAddress(address);
    return this.list.check(plain, isIP(plain) === 4 ? "ipv4" : "ipv6");
  }
}
