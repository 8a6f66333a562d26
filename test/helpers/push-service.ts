/**
 * A push service (RFC 8030) on loopback for the tests: it keeps what Parley posts, decrypts it with the
 * subscription's private key (aes128gcm, RFC 8188/8291, written here from the RFCs with node:crypto),
 * and checks the VAPID header (RFC 8292: an ES256 JWT whose `aud` is this service's origin, `exp`
 * within 24 hours, signed by the key in `k`). What it answers is set per path, or by a function.
 */
import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, verify, type ECDH } from "node:crypto";

/** A browser's side of a subscription: the keys it gives the server, and the private key it keeps. */
export interface BrowserKeys {
  p256dh: string;
  auth: string;
  ecdh: ECDH;
  authBytes: Buffer;
}

export function browserKeys(): BrowserKeys {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const authBytes = randomBytes(16);
  return { p256dh: ecdh.getPublicKey().toString("base64url"), auth: authBytes.toString("base64url"), ecdh, authBytes };
}

/** RFC 8291 §3.4 and RFC 8188 §2: one aes128gcm record, decrypted with the browser's keys. */
export function decryptAes128gcm(body: Buffer, keys: BrowserKeys): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  if (idlen !== 65 || ciphertext.length > rs) throw new Error(`unexpected aes128gcm header: idlen ${idlen}, rs ${rs}, ${ciphertext.length} bytes`);
  const uaPublic = keys.ecdh.getPublicKey();
  const ecdhSecret = keys.ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, keys.authBytes, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // the last record ends with the delimiter 0x02, then zero padding
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("no last-record delimiter");
  return padded.subarray(0, end).toString("utf8");
}

export interface Vapid {
  /** the JWT's claims */
  claims: { aud: string; exp: number; sub: string };
  /** `k`: the server's public key, base64url */
  publicKey: string;
}

/** Parses and verifies `Authorization: vapid t=JWT, k=KEY` (RFC 8292); throws naming what is wrong. */
export function verifyVapid(header: string | null, origin: string, nowSecs = Date.now() / 1000): Vapid {
  const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? "");
  if (!m) throw new Error(`not a vapid Authorization header: ${header}`);
  const [, jwt, k] = m as unknown as [string, string, string];
  const [h, p, sig] = jwt.split(".") as [string, string, string];
  const head = JSON.parse(Buffer.from(h, "base64url").toString());
  if (head.alg !== "ES256") throw new Error(`JWT alg ${head.alg}`);
  const point = Buffer.from(k, "base64url");
  const key = createPublicKey({ key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") }, format: "jwk" });
  if (!verify("sha256", Buffer.from(`${h}.${p}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(sig, "base64url"))) throw new Error("VAPID signature does not verify");
  const claims = JSON.parse(Buffer.from(p, "base64url").toString());
  if (claims.aud !== origin) throw new Error(`aud ${claims.aud}, expected ${origin}`);
  if (!(claims.exp > nowSecs && claims.exp <= nowSecs + 24 * 3600)) throw new Error(`exp ${claims.exp} not within 24 hours`);
  if (!/^(mailto:|https:)/.test(claims.sub ?? "")) throw new Error(`sub ${claims.sub}`);
  return { claims, publicKey: k };
}

export interface Received {
  path: string;
  headers: Headers;
  body: Buffer;
}

export interface FakePushService {
  origin: string;
  /** an endpoint URL on this service */
  endpoint(path: string): string;
  received: Received[];
  receivedAt(path: string): Received[];
  /** what to answer on `path`: a status, or a Response; the next ones in turn, the last one repeating */
  answer(path: string, ...answers: (number | (() => Response | Promise<Response>))[]): void;
  stop(): void;
}

export function startPushService(): FakePushService {
  const answers = new Map<string, (number | (() => Response | Promise<Response>))[]>();
  const received: Received[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      received.push({ path, headers: req.headers, body: Buffer.from(await req.arrayBuffer()) });
      const list = answers.get(path) ?? [201];
      const next = list.length > 1 ? list.shift()! : list[0]!;
      return typeof next === "number" ? new Response(null, { status: next }) : next();
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    origin,
    endpoint: (path) => origin + path,
    received,
    receivedAt: (path) => received.filter((r) => r.path === path),
    answer: (path, ...list) => void answers.set(path, list),
    stop: () => void server.stop(true),
  };
}
