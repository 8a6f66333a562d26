/**
 * The server's VAPID key pair (RFC 8292): made on the first start and kept in DATA_DIR/vapid.json (mode
 * 0600), so browsers' subscriptions, bound to the public key, survive restarts.
 */
import { createECDH } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface VapidKeys {
  /** base64url, the uncompressed P-256 point browsers take as applicationServerKey */
  publicKey: string;
  privateKey: string;
}

const known = new Map<string, VapidKeys>();

const isKeys = (v: unknown): v is VapidKeys =>
  typeof v === "object" && v !== null && typeof (v as VapidKeys).publicKey === "string" && typeof (v as VapidKeys).privateKey === "string";

/** The data dir's key pair, made and saved the first time. */
export function vapidKeys(dataDir: string): VapidKeys {
  const cached = known.get(dataDir);
  if (cached) return cached;
  const path = join(dataDir, "vapid.json");
  let keys: VapidKeys;
  try {
    const saved: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (!isKeys(saved)) throw new Error(`${path} does not hold a VAPID key pair; move it away to make a new one`);
    keys = { publicKey: saved.publicKey, privateKey: saved.privateKey };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    keys = newKeyPair();
    mkdirSync(dataDir, { recursive: true });
    // "wx": two processes racing on a fresh data dir must not each write their own pair
    try {
      writeFileSync(path, JSON.stringify(keys, null, 2) + "\n", { mode: 0o600, flag: "wx" });
      chmodSync(path, 0o600);
    } catch (w) {
      if ((w as NodeJS.ErrnoException).code !== "EEXIST") throw w;
      return vapidKeys(dataDir);
    }
  }
  known.set(dataDir, keys);
  return keys;
}

/**
 * A P-256 key pair as web-push's generateVAPIDKeys makes it (zero-padded to 32 and 65 bytes), without
 * loading web-push and its dependencies at start: only sending a push needs them.
 */
function newKeyPair(): VapidKeys {
  const curve = createECDH("prime256v1");
  curve.generateKeys();
  const pad = (b: Buffer, n: number) => (b.length < n ? Buffer.concat([Buffer.alloc(n - b.length), b]) : b);
  return { publicKey: pad(curve.getPublicKey(), 65).toString("base64url"), privateKey: pad(curve.getPrivateKey(), 32).toString("base64url") };
}
