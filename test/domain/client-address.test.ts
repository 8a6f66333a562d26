import { describe, expect, test } from "bun:test";
import { resolveClient, type ClientEvidence } from "../../src/http/client-address";
import { AddressSet } from "../../src/lib/ip";

const none = new AddressSet([]);
const proxies = new AddressSet(["127.0.0.1", "10.0.0.0/8", "fd00::/8"]);
const ev = (e: Partial<ClientEvidence>): ClientEvidence => ({ peer: "203.0.113.9", forwardedFor: null, forwardedProto: null, tls: false, ...e });

describe("the client address", () => {
  test("is the socket's peer when no proxy is trusted, whatever the headers claim", () => {
    expect(resolveClient(ev({ forwardedFor: "198.51.100.1", forwardedProto: "https" }), none)).toEqual({ address: "203.0.113.9", https: false });
  });

  test("a spoofed X-Forwarded-For from a peer that is not a trusted proxy is ignored", () => {
    expect(resolveClient(ev({ peer: "203.0.113.9", forwardedFor: "127.0.0.1, 10.1.1.1" }), proxies).address).toBe("203.0.113.9");
  });

  test("from a trusted proxy, the right-most address that is not a trusted proxy is the client", () => {
    // the client wrote "1.2.3.4" itself; the outer proxy 10.0.0.5 appended the real 198.51.100.7
    const c = resolveClient(ev({ peer: "127.0.0.1", forwardedFor: "1.2.3.4, 198.51.100.7, 10.0.0.5" }), proxies);
    expect(c.address).toBe("198.51.100.7");
  });

  test("when every forwarded address is a trusted proxy, the left-most is the client", () => {
    expect(resolveClient(ev({ peer: "127.0.0.1", forwardedFor: "10.0.0.9, 10.0.0.5" }), proxies).address).toBe("10.0.0.9");
  });

  test("a trusted proxy without X-Forwarded-For is itself the client", () => {
    expect(resolveClient(ev({ peer: "127.0.0.1" }), proxies).address).toBe("127.0.0.1");
  });

  test("garbage in X-Forwarded-For ends the walk at the last address a trusted proxy vouched for", () => {
    expect(resolveClient(ev({ peer: "127.0.0.1", forwardedFor: "198.51.100.7, not-an-ip, 10.0.0.5" }), proxies).address).toBe("10.0.0.5");
    expect(resolveClient(ev({ peer: "127.0.0.1", forwardedFor: "<script>" }), proxies).address).toBe("127.0.0.1");
  });

  test("IPv4 peers on a dual-stack socket and IPv6 proxies are understood", () => {
    expect(resolveClient(ev({ peer: "::ffff:127.0.0.1", forwardedFor: "198.51.100.7" }), proxies).address).toBe("198.51.100.7");
    expect(resolveClient(ev({ peer: "fd12::3", forwardedFor: "2001:db8::1, ::ffff:10.2.2.2" }), proxies).address).toBe("2001:db8::1");
    expect(resolveClient(ev({ peer: "::ffff:203.0.113.9" }), none).address).toBe("203.0.113.9");
  });

  test("a request with no socket (built in-process) is 'local'", () => {
    expect(resolveClient(ev({ peer: null, forwardedFor: "198.51.100.7" }), proxies)).toEqual({ address: "local", https: false });
  });
});

describe("whether the client's connection is HTTPS", () => {
  test("Parley's own TLS makes it HTTPS; a forged X-Forwarded-Proto changes nothing", () => {
    expect(resolveClient(ev({ tls: true, forwardedProto: "http" }), none).https).toBe(true);
    expect(resolveClient(ev({ tls: false, forwardedProto: "https" }), proxies).https).toBe(false);
  });

  test("a trusted proxy's X-Forwarded-Proto decides (the nearest proxy's value, the last one)", () => {
    expect(resolveClient(ev({ peer: "127.0.0.1", forwardedProto: "https" }), proxies).https).toBe(true);
    expect(resolveClient(ev({ peer: "127.0.0.1", forwardedProto: "https, http" }), proxies).https).toBe(false);
    expect(resolveClient(ev({ peer: "127.0.0.1", forwardedProto: "HTTPS" }), proxies).https).toBe(true);
    expect(resolveClient(ev({ peer: "127.0.0.1", tls: true }), proxies).https).toBe(true);
  });
});

describe("address sets", () => {
  test("match addresses and ranges of both families, and nothing else", () => {
    expect(["127.0.0.1", "10.200.3.4", "fd00::1", "::ffff:10.0.0.1"].map((a) => proxies.has(a))).toEqual([true, true, true, true]);
    expect(["127.0.0.2", "11.0.0.1", "fe80::1", "local", ""].map((a) => proxies.has(a))).toEqual([false, false, false, false, false]);
    expect(() => new AddressSet(["10.0.0.0/33"])).toThrow("'10.0.0.0/33' is not an IP address or a CIDR range");
  });
});
