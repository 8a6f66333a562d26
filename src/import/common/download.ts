// Downloads an import makes on its own (Slack's files, custom emoji): only from https addresses that
// resolve to public IPs (tests may allow loopback; checked at connect, by lib/outbound-http.ts), with a
// bounded number of tries, each redirect followed here and checked again, and the token sent only to
// the host it was given for. Each finished download is kept in a folder beside the data dir, named by
// its URL, so an import that crashed and runs again fetches only what it did not have; the folder goes
// once the import succeeds.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OutboundError, outboundRequest } from "../../lib/outbound-http";

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
  }

  /** The local file of a finished download of `url`, fetching it if this or an earlier run has not. */
  async fetch(url: string): Promise<{ path: string; size: number }> {
    const path = join(this.opts.cacheDir, createHash("sha256").update(url).digest("hex"));
    if (existsSync(path)) return { path, size: statSync(path).size };
    // made on the first download: an import that fetches nothing leaves no folder behind
    mkdirSync(this.opts.cacheDir, { recursive: true });
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
    const allowPrivate = this.opts.allowPrivate ?? false;
    let current = first;
    for (let hop = 0; hop <= 5; hop++) {
      if (current.protocol !== "https:" && !(allowPrivate && current.protocol === "http:")) throw new DownloadError(`refusing ${current.protocol}// (downloads are https only)`);
      const headers: Record<string, string> = {};
      const tokenHosts = this.opts.tokenHosts ?? [first.hostname];
      if (this.opts.token && current.protocol === first.protocol && tokenHosts.includes(current.hostname)) headers.authorization = `Bearer ${this.opts.token}`;
      const res = await outboundRequest({ url: current, headers, timeoutMs: this.opts.timeoutMs ?? 60_000, maxBytes: this.opts.maxBytes, allowPrivate }).catch((e: Error) => {
        if (e instanceof OutboundError && e.kind === "refused") throw new DownloadError(`refusing to download: ${e.message}`);
        throw retryable(`cannot reach ${current.host} (${e.message})`);
      });
      const location = res.headers.location;
      if (res.status >= 300 && res.status < 400 && location) {
        current = new URL(location, current);
        continue;
      }
      if (res.status === 429 || res.status >= 500) throw retryable(`${current.host} answered ${res.status}`);
      if (res.status < 200 || res.status >= 300) {
        throw new DownloadError(`${current.host} answered ${res.status}${res.status === 401 || res.status === 403 ? " (is the token right?)" : ""}`);
      }
      if (res.truncated) throw new DownloadError(`larger than the upload limit (${this.opts.maxBytes} bytes)`);
      // written whole, then named: a crash never leaves a partial file under the final name
      writeFileSync(`${to}.part`, res.body);
      renameSync(`${to}.part`, to);
      return;
    }
    throw new DownloadError("too many redirects");
  }
}

function retryable(message: string): DownloadError {
  return Object.assign(new DownloadError(message), { retry: true });
}
