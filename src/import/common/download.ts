// Downloads an import makes on its own (Slack's files, custom emoji): only from https addresses that
// resolve to public IPs (tests may allow loopback), with a bounded number of tries, each redirect
// checked again, and the token sent only to the host it was given for. Each finished download is
// kept in a folder beside the data dir, named by its URL, so an import that crashed and runs again
// fetches only what it did not have; the folder goes once the import succeeds.
import { createHash } from "node:crypto";
import { lookup } from "node:dns/promises";
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { AddressSet, isAddress, plainAddress } from "../../lib/ip";

/** Addresses an import never downloads from unless allowed (loopback, private, link-local, and the like). */
const NOT_PUBLIC = new AddressSet([
  "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24",
  "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
  "::/128", "::1/128", "fc00::/7", "fe80::/10", "ff00::/8", "64:ff9b::/96", "2001:db8::/32",
]);

export class DownloadError extends Error {}

export interface DownloaderOptions {
  /** the folder of finished downloads (kept across a crashed run) */
  cacheDir: string;
  /** Bearer token, sent to `tokenHosts` only */
  token?: string;
  tokenHosts?: string[];
  /** tests: a fake file host on loopback, over http */
  allowPrivate?: boolean;
  maxBytes: number;
  tries?: number;
  timeoutMs?: number;
}

export class Downloader {
  private readonly tries: number;
  constructor(private readonly opts: DownloaderOptions) {
    this.tries = opts.tries ?? 3;
    mkdirSync(opts.cacheDir, { recursive: true });
  }

  /** The local file of a finished download of `url`, fetching it if this or an earlier run has not. */
  async fetch(url: string): Promise<{ path: string; size: number }> {
    const path = join(this.opts.cacheDir, createHash("sha256").update(url).digest("hex"));
    if (existsSync(path)) return { path, size: statSync(path).size };
    let lastError: Error = new DownloadError("not tried");
    for (let attempt = 0; attempt < this.tries; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
      try {
        await this.fetchOnce(url, path);
        return { path, size: statSync(path).size };
      } catch (e) {
        lastError = e as Error;
        if (e instanceof DownloadError && !(e as DownloadError & { retry?: boolean }).retry) break;
      }
    }
    throw new DownloadError(`${lastError.message}`);
  }

  /** Removes the folder of finished downloads (after a successful import). */
  clear() {
    rmSync(this.opts.cacheDir, { recursive: true, force: true });
  }

  private async fetchOnce(url: string, to: string) {
    const first = new URL(url);
    let current = first;
    for (let hop = 0; hop <= 5; hop++) {
      await this.checkAddress(current);
      const headers: Record<string, string> = {};
      const tokenHosts = this.opts.tokenHosts ?? [first.hostname];
      if (this.opts.token && current.protocol === first.protocol && tokenHosts.includes(current.hostname)) headers.authorization = `Bearer ${this.opts.token}`;
      const res = await fetch(current, { headers, redirect: "manual", signal: AbortSignal.timeout(this.opts.timeoutMs ?? 60_000) }).catch((e: Error) => {
        throw retryable(`cannot reach ${current.host} (${e.message})`);
      });
      if (res.status >= 300 && res.status < 400 && res.headers.get("location")) {
        await res.body?.cancel();
        current = new URL(res.headers.get("location")!, current);
        continue;
      }
      if (res.status === 429 || res.status >= 500) {
        await res.body?.cancel();
        throw retryable(`${current.host} answered ${res.status}`);
      }
      if (!res.ok || !res.body) {
        await res.body?.cancel();
        throw new DownloadError(`${current.host} answered ${res.status}${res.status === 401 || res.status === 403 ? " (is the token right?)" : ""}`);
      }
      await this.save(res.body, to);
      return;
    }
    throw new DownloadError("too many redirects");
  }

  private async checkAddress(url: URL) {
    const allowPrivate = this.opts.allowPrivate ?? false;
    if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) throw new DownloadError(`refusing ${url.protocol}// (downloads are https only)`);
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const addresses = isAddress(host)
      ? [host]
      : (await lookup(host, { all: true }).catch((e: Error) => {
          throw retryable(`cannot resolve ${host} (${e.message})`);
        })).map((a) => a.address);
    if (allowPrivate) return;
    for (const a of addresses) if (NOT_PUBLIC.has(plainAddress(a))) throw new DownloadError(`refusing ${host}: it resolves to a non-public address (${a})`);
  }

  private async save(body: ReadableStream<Uint8Array>, to: string) {
    const part = `${to}.part`;
    const out = createWriteStream(part);
    let size = 0;
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.length;
        if (size > this.opts.maxBytes) throw new DownloadError(`larger than the upload limit (${this.opts.maxBytes} bytes)`);
        if (!out.write(chunk)) await new Promise((r) => out.once("drain", r));
      }
      await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
      renameSync(part, to);
    } catch (e) {
      out.destroy();
      rmSync(part, { force: true });
      if (e instanceof DownloadError) throw e;
      throw retryable(`download interrupted (${(e as Error).message})`);
    }
  }
}

function retryable(message: string): DownloadError {
  return Object.assign(new DownloadError(message), { retry: true });
}
