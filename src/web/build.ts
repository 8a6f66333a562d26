/**
 * Bundles the web app (assets/app) with Bun.build: minified ES modules and CSS with content-hashed names,
 * and the two HTML pages that link them. It runs when `npm start` serves from source (on first use) and
 * in build/compile.ts, which embeds the result in the executable; the executable never bundles.
 */
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import { THEME_COLOR } from "./manifest";
import type { ManifestIcon, WebBuild, WebFile } from "./types";

const APP = resolve(import.meta.dir, "../../assets/app");
const IMAGES = resolve(import.meta.dir, "../../assets/images");

/** The installable app's icons (made from the favicon by build/make-icons.ts). */
const ICONS = [
  { file: "icon-192.png", sizes: "192x192" },
  { file: "icon-512.png", sizes: "512x512" },
  { file: "icon-maskable-512.png", sizes: "512x512", purpose: "maskable" },
];

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
};

/** Files too large to cache for everyone at install: fetched when first drawn (the Google emoji sheet). */
const ON_DEMAND = /^emoji-sheet-/;

const typeOf = (name: string) => TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream";
const hashOf = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex").slice(0, 10);
/** A Content-Security-Policy source allowing one inline script: the base64 SHA-256 of its exact text. */
export const cspHashOf = (script: string) => `'sha256-${createHash("sha256").update(script).digest("base64")}'`;

/** PARLEY_PROFILE_NAMES=1 keeps the names of functions, for reading a CPU profile of the page (test/bench/web.ts) */
const minify = () => (process.env.PARLEY_PROFILE_NAMES ? { whitespace: true, syntax: true, identifiers: false } : true);

/**
 * The app page's inline start-up script (assets/app/start.ts): one classic script, in the page itself so
 * /register and the first messages are sent before the bundle has even been asked for.
 */
async function bundleStartScript(): Promise<string> {
  const result = await Bun.build({ entrypoints: [join(APP, "start.ts")], target: "browser", format: "iife", minify: minify(), sourcemap: "none" });
  if (!result.success) throw new AggregateError(result.logs, "the start-up script did not bundle");
  // nothing in it may end the <script> element early
  return (await result.outputs[0]!.text()).trim().replaceAll("</", "<\\/");
}

export async function bundleWebApp(): Promise<WebBuild> {
  const result = await Bun.build({
    entrypoints: [join(APP, "main.tsx"), join(APP, "login.ts")],
    target: "browser",
    format: "esm",
    splitting: true,
    minify: minify(),
    sourcemap: "none",
    publicPath: "/static/",
    naming: { entry: "[name]-[hash].[ext]", chunk: "[name]-[hash].[ext]", asset: "[name]-[hash].[ext]" },
    jsx: { runtime: "automatic", importSource: "preact" },
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!result.success) throw new AggregateError(result.logs, "the web app did not bundle");
  const files: WebFile[] = [];
  const entries: Record<string, { js?: string; css: string[] }> = { main: { css: [] }, login: { css: [] } };
  for (const out of result.outputs) {
    const name = out.path.replace(/^.*[\\/]/, "");
    const type = typeOf(name);
    const binary = type.startsWith("image/") && !type.startsWith("image/svg");
    files.push({
      name,
      type,
      ...(binary ? { body: Buffer.from(await out.arrayBuffer()).toString("base64"), base64: true } : { body: await out.text() }),
      ...(ON_DEMAND.test(name) ? { onDemand: true } : {}),
    });
    const entry = /^(main|login)-/.exec(name)?.[1];
    if (!entry) continue;
    if (name.endsWith(".css")) entries[entry]!.css.push(name);
    else if (out.kind === "entry-point") entries[entry]!.js = name;
  }
  const favicon = await Bun.file(join(APP, "images/favicon.svg")).text();
  const faviconName = `favicon-${hashOf(favicon)}.svg`;
  files.push({ name: faviconName, type: typeOf(faviconName), body: favicon });
  const icons: ManifestIcon[] = [];
  for (const icon of ICONS) {
    const bytes = await Bun.file(join(IMAGES, icon.file)).bytes();
    const name = icon.file.replace(/\.png$/, `-${hashOf(bytes)}.png`);
    files.push({ name, type: typeOf(name), body: Buffer.from(bytes).toString("base64"), base64: true });
    icons.push({ src: `/static/${name}`, sizes: icon.sizes, type: "image/png", ...(icon.purpose ? { purpose: icon.purpose } : {}) });
  }
  const startScript = await bundleStartScript();
  const page = async (template: string, entry: string, inline: string[] = []) => {
    const e = entries[entry]!;
    if (!e.js) throw new Error(`the web app's ${entry} bundle has no script`);
    const head = [
      // first: a script after a stylesheet would wait for it
      ...inline.map((script) => `<script>${script}</script>`),
      `<link rel="icon" href="/static/${faviconName}" type="image/svg+xml">`,
      `<link rel="manifest" href="/manifest.webmanifest">`,
      `<link rel="apple-touch-icon" href="${icons[0]!.src}">`,
      `<meta name="theme-color" content="${THEME_COLOR}">`,
      ...e.css.map((c) => `<link rel="stylesheet" href="/static/${c}">`),
      `<script type="module" src="/static/${e.js}"></script>`,
    ].join("\n  ");
    return (await Bun.file(join(APP, template)).text()).replace("<!--head-->", head);
  };
  const appHtml = await page("index.html", "main", [startScript]);
  return { files, appHtml, appScriptHashes: [cspHashOf(startScript)], loginHtml: await page("login.html", "login"), serviceWorker: await bundleServiceWorker(files, appHtml, icons[0]!.src), icons };
}

/**
 * /sw.js, one classic script: the shell it caches (the page and every hashed file of this build) and a
 * version that changes with them, so a new build replaces the old cache.
 */
async function bundleServiceWorker(files: WebFile[], appHtml: string, icon: string): Promise<string> {
  const shell = ["/", ...files.filter((f) => !f.onDemand).map((f) => `/static/${f.name}`)];
  const result = await Bun.build({
    entrypoints: [join(APP, "sw.ts")],
    target: "browser",
    format: "iife",
    minify: true,
    sourcemap: "none",
    define: {
      __PARLEY_SHELL__: JSON.stringify(shell),
      __PARLEY_VERSION__: JSON.stringify(hashOf(shell.join("\n") + appHtml)),
      __PARLEY_ICON__: JSON.stringify(icon),
    },
  });
  if (!result.success) throw new AggregateError(result.logs, "the service worker did not bundle");
  return result.outputs[0]!.text();
}
