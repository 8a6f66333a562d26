/**
 * Where the web app comes from. From source it is bundled on first use (once per process); the
 * executable's build replaces this module with one that returns the bundle embedded at build time
 * (build/compile.ts), so a compiled server never bundles.
 */
import type { WebBuild } from "./types";

let pending: Promise<WebBuild> | null = null;

export function loadWebBuild(): Promise<WebBuild> {
  pending ??= import("./build").then((m) => m.bundleWebApp());
  // a failed bundle is retried on the next request rather than remembered
  pending.catch(() => (pending = null));
  return pending;
}
