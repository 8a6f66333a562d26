/**
 * Bundles the web app (assets/app) with Bun.build: minified ES modules and CSS with content-hashed names,
 * and the two HTML pages that link them. It runs when `npm start` serves from source (on first use) and
 * in build/compile.ts, which embeds the result in the executable; the executable never bundles.
 */
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import type { WebBuild, WebFile } from "./types";

const APP = resolve(import.meta.dir, "../../assets/app");

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
};

const typeOf = (name: string) => TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream";
const hashOf = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 10);

export async function bundleWebApp(): Promise<WebBuild> {
  const result = await Bun.build({
    entrypoints: [join(APP, "main.tsx"), join(APP, "login.ts")],
    target: "browser",
    format: "esm",
    splitting: true,
    minify: true,
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
    files.push({ name, type: typeOf(name), body: await out.text() });
    const entry = /^(main|login)-/.exec(name)?.[1];
    if (!entry) continue;
    if (name.endsWith(".css")) entries[entry]!.css.push(name);
    else if (out.kind === "entry-point") entries[entry]!.js = name;
  }
  const favicon = await Bun.file(join(APP, "images/favicon.svg")).text();
  const faviconName = `favicon-${hashOf(favicon)}.svg`;
  files.push({ name: faviconName, type: typeOf(faviconName), body: favicon });
  const page = async (template: string, entry: string) => {
    const e = entries[entry]!;
    if (!e.js) throw new Error(`the web app's ${entry} bundle has no script`);
    const head = [
      `<link rel="icon" href="/static/${faviconName}" type="image/svg+xml">`,
      ...e.css.map((c) => `<link rel="stylesheet" href="/static/${c}">`),
      `<script type="module" src="/static/${e.js}"></script>`,
    ].join("\n  ");
    return (await Bun.file(join(APP, template)).text()).replace("<!--head-->", head);
  };
  return { files, appHtml: await page("index.html", "main"), loginHtml: await page("login.html", "login") };
}
