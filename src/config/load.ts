import { Value } from "@sinclair/typebox/value";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { AddressSet } from "../lib/ip";
import { ConfigSchema, type Config } from "./schema";

/** A config problem: exits with code 2 and names the key. */
export class ConfigError extends Error {}

export interface Overrides {
  config?: string;
  dataDir?: string;
  host?: string;
  port?: number;
}

/** Reads the TOML file (if any), applies defaults, then env (PARLEY_*), then flags. */
export function loadConfig(flags: Overrides = {}, env: Record<string, string | undefined> = process.env): Config {
  const file = flags.config ?? env.PARLEY_CONFIG;
  const raw = file ? readToml(file) : {};
  const cfg = parseConfig(raw) as Config;
  const dataDir = resolve(flags.dataDir ?? env.PARLEY_DATA_DIR ?? "./parley-data");
  cfg.data_dir = dataDir;
  const host = flags.host ?? env.PARLEY_HOST;
  if (host !== undefined) cfg.server.host = host;
  const port = flags.port ?? (env.PARLEY_PORT !== undefined ? portFrom(env.PARLEY_PORT, "PARLEY_PORT") : undefined);
  if (port !== undefined) cfg.server.port = port;
  if (!cfg.storage.database) cfg.storage.database = `file:${join(dataDir, "parley.db")}`;
  if (!cfg.storage.uploads_dir) cfg.storage.uploads_dir = join(dataDir, "uploads");
  else if (!isAbsolute(cfg.storage.uploads_dir)) cfg.storage.uploads_dir = resolve(dataDir, cfg.storage.uploads_dir);
  if (cfg.backup.dir && !isAbsolute(cfg.backup.dir)) cfg.backup.dir = resolve(dataDir, cfg.backup.dir);
  checkMetrics(cfg);
  checkHeapGrowth(cfg);
  checkServer(cfg, file ? dirname(resolve(file)) : process.cwd());
  const scheme = cfg.server.tls_cert ? "https" : "http";
  if (!cfg.server.external_url) cfg.server.external_url = `${scheme}://${hostForUrl(cfg.server.host)}:${cfg.server.port}`;
  cfg.server.external_url = cfg.server.external_url.replace(/\/+$/, "");
  return cfg;
}

/** [server]: TLS files come in pairs (paths relative to the config file's folder); proxies are addresses or ranges. */
function checkServer(cfg: Omit<Config, "data_dir">, base: string): void {
  const s = cfg.server;
  if (s.tls_cert && !s.tls_key) throw new ConfigError("config key 'server.tls_key' is required with 'server.tls_cert' (the certificate's private key, a PEM file)");
  if (s.tls_key && !s.tls_cert) throw new ConfigError("config key 'server.tls_cert' is required with 'server.tls_key' (the certificate chain, a PEM file)");
  if (s.tls_cert) {
    s.tls_cert = resolve(base, s.tls_cert);
    s.tls_key = resolve(base, s.tls_key);
  }
  try {
    new AddressSet(s.trusted_proxies);
  } catch (e) {
    throw new ConfigError(`config key 'server.trusted_proxies': ${(e as Error).message}`);
  }
}

/** Validates a parsed TOML object and fills in defaults; throws ConfigError naming the offending key. */
export function parseConfig(raw: unknown): Omit<Config, "data_dir"> {
  const withDefaults = Value.Default(ConfigSchema, structuredClone(raw));
  const error = Value.Errors(ConfigSchema, withDefaults).First();
  if (error) {
    const key = error.path.replace(/^\//, "").replaceAll("/", ".") || "(top level)";
    const unknown = error.message.includes("additional") || error.message.includes("Unexpected property");
    // a choice of words (t.Union of literals) says which words
    const choices = ((error.schema as { anyOf?: { const?: unknown }[] }).anyOf ?? []).map((s) => s.const).filter((c) => c !== undefined);
    const problem = choices.length ? `must be one of ${choices.map((c) => JSON.stringify(c)).join(", ")}` : error.message.toLowerCase();
    throw new ConfigError(unknown ? `unknown config key '${unknownKey(raw, error.path)}'` : `config key '${key}': ${problem}`);
  }
  return withDefaults as Omit<Config, "data_dir">;
}

/** Metrics on the main port answer only with the token: that port is the one the world reaches. */
function checkMetrics(cfg: Config) {
  const m = cfg.metrics;
  if (m.enabled && m.port === 0 && !m.token) {
    throw new ConfigError("config key 'metrics.token': required when metrics are served on the main port (or set metrics.port for a separate listener)");
  }
}

/** A growth under 1.25 would have JavaScriptCore collect after every few allocations. */
function checkHeapGrowth(cfg: Config) {
  const g = cfg.memory.js_heap_growth;
  if (g !== 0 && g < 1.25) throw new ConfigError(`config key 'memory.js_heap_growth': must be 0 (JavaScriptCore's own sizing) or at least 1.25, got ${g}`);
}

export function portFrom(text: string, name: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535) throw new ConfigError(`${name} must be a port number (0-65535), got '${text}'`);
  return n;
}

function readToml(file: string): unknown {
  let text: string;
  try {
    text = require("node:fs").readFileSync(file, "utf8");
  } catch (e) {
    throw new ConfigError(`cannot read config file ${file}: ${(e as Error).message}`);
  }
  try {
    return Bun.TOML.parse(text);
  } catch (e) {
    throw new ConfigError(`config file ${file} is not valid TOML: ${(e as Error).message}`);
  }
}

/** The first key along `path` (or under it) that the schema does not know. */
function unknownKey(raw: unknown, path: string): string {
  let schema: any = ConfigSchema;
  let value: any = raw;
  const seen: string[] = [];
  for (const p of path.split("/").filter(Boolean)) {
    seen.push(p);
    if (!schema.properties?.[p]) return seen.join(".");
    schema = schema.properties[p];
    value = value?.[p];
  }
  const known = new Set(Object.keys(schema?.properties ?? {}));
  const extra = Object.keys(value ?? {}).find((k) => !known.has(k));
  return [...seen, extra ?? "?"].join(".");
}

const hostForUrl = (host: string) => (host === "0.0.0.0" || host === "::" ? "localhost" : host.includes(":") ? `[${host}]` : host);
