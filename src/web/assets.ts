/**
 * The web app's HTTP answers: hashed files cached for a year (their names change with their content),
 * the two pages never cached, all under a strict Content-Security-Policy (scripts only from this origin,
 * no inline style, and no inline script but the app page's own start-up script, allowed by its hash).
 */
import { gzipSync } from "node:zlib";
import { escapeHtml } from "../domain/highlight";
import { webManifest } from "./manifest";
import type { WebBuild } from "./types";

export const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'self'; img-src 'self' https: data:; style-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
};

/** The headers of a page whose inline scripts are these (CSP hash sources) and no others. */
export function pageSecurityHeaders(scriptHashes: string[]): Record<string, string> {
  if (!scriptHashes.length) return SECURITY_HEADERS;
  const csp = SECURITY_HEADERS["content-security-policy"].replace("script-src 'self'", `script-src 'self' ${scriptHashes.join(" ")}`);
  return { ...SECURITY_HEADERS, "content-security-policy": csp };
}

const IMMUTABLE = "public, max-age=31536000, immutable";

interface Prepared {
  type: string;
  /** the bytes (decoded on the file's first request: a visit asks for a few of the build's files), or the path of a file embedded in the executable */
  raw: (() => Uint8Array<ArrayBuffer>) | string;
  /** compressed on first request; null for images already compressed (PNG), which gzip would not shrink */
  gzip: (() => Uint8Array<ArrayBuffer>) | null;
}

/** A value computed on first use, then kept. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

export interface WebAssets {
  /** a hashed file under /static/, or null */
  file(name: string, acceptEncoding: string | null): Response | null;
  appPage(): Response;
  /** /sw.js: never cached by HTTP, so a new build's worker is found on the next visit */
  serviceWorker(): Response;
  /** /manifest.webmanifest, named after the organization */
  manifest(realmName: string): Response;
  /** `error`: what the page says above the form (a failed or throttled login), or null */
  /** `notice`: a line that is not an error (why the person is here, e.g. their session ended) */
  loginPage(opts: { realmName: string; error: string | null; notice?: string | null }): Response;
  /** A page in the login page's card (password reset, links from emails): `main` is HTML after the heading. */
  cardPage(opts: { realmName: string; title: string; main: string; status?: number }): Response;
}

const prepared = new WeakMap<WebBuild, WebAssets>();

export function webAssets(build: WebBuild): WebAssets {
  const known = prepared.get(build);
  if (known) return known;
  const files = new Map<string, Prepared>();
  for (const f of build.files) {
    if (f.path) {
      files.set(f.name, { type: f.type, raw: f.path, gzip: null });
      continue;
    }
    const raw = once(() => (f.base64 ? new Uint8Array(Buffer.from(f.body, "base64")) : new TextEncoder().encode(f.body)) as Uint8Array<ArrayBuffer>);
    const compressed = f.type === "image/png";
    files.set(f.name, { type: f.type, raw, gzip: compressed ? null : once(() => new Uint8Array(gzipSync(raw(), { level: 9 }))) });
  }
  const page = (html: string, scriptHashes: string[] = []) =>
    new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache", ...pageSecurityHeaders(scriptHashes) } });
  const assets: WebAssets = {
    file(name, acceptEncoding) {
      const f = files.get(name);
      if (!f) return null;
      const gzip = f.gzip && /\bgzip\b/.test(acceptEncoding ?? "") ? f.gzip : null;
      const headers: Record<string, string> = { "content-type": f.type, "cache-control": IMMUTABLE, vary: "accept-encoding", ...SECURITY_HEADERS };
      if (gzip) headers["content-encoding"] = "gzip";
      return new Response(gzip ? gzip() : typeof f.raw === "string" ? Bun.file(f.raw) : f.raw(), { headers });
    },
    appPage: () => page(build.appHtml, build.appScriptHashes),
    serviceWorker: () =>
      new Response(build.serviceWorker, {
        headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache", "service-worker-allowed": "/", ...SECURITY_HEADERS },
      }),
    manifest: (realmName) =>
      new Response(JSON.stringify(webManifest(realmName, build.icons)), {
        headers: { "content-type": "application/manifest+json; charset=utf-8", "cache-control": "no-cache", ...SECURITY_HEADERS },
      }),
    loginPage: ({ realmName, error, notice }) =>
      page(
        build.loginHtml
          .replaceAll("<!--realm-name-->", escapeHtml(realmName))
          .replace(
            "<!--login-error-->",
            error ? `<p class="login-error" role="alert">${escapeHtml(error)}</p>` : notice ? `<p class="login-notice" role="status">${escapeHtml(notice)}</p>` : "",
          ),
      ),
    cardPage: ({ realmName, title, main, status = 200 }) => {
      const html = build.loginHtml
        .replace(/<title>[\s\S]*?<\/title>/, `<title>${escapeHtml(title)} · ${escapeHtml(realmName)}</title>`)
        .replace(/(<h1 id="login-title">)[\s\S]*?(<\/main>)/, (_, open: string, close: string) => `${open}${escapeHtml(title)}</h1>\n${main}\n  ${close}`);
      const res = page(html);
      return new Response(res.body, { status, headers: res.headers });
    },
  };
  prepared.set(build, assets);
  return assets;
}
