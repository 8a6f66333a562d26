import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig, parseConfig } from "../../src/config/load";

const dir = mkdtempSync(join(tmpdir(), "parley-config-"));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe("config defaults", () => {
  test("every key has a default, so no file is needed", () => {
    const c = loadConfig({ dataDir: "/srv/parley" }, {});
    expect(c.server).toEqual({ host: "127.0.0.1", port: 9991, external_url: "http://127.0.0.1:9991", tls_cert: "", tls_key: "", trusted_proxies: [] });
    expect(c.log).toEqual({ level: "info", format: "text" });
    expect(c.storage.database).toBe("file:/srv/parley/parley.db");
    expect(c.storage.uploads_dir).toBe("/srv/parley/uploads");
    expect(c.limits).toEqual({ max_message_length: 10000, max_topic_length: 60, max_stream_name_length: 60, max_stream_description_length: 1024, max_file_upload_size_mib: 25, max_import_size_mib: 2048, max_invites_per_day: 100 });
    expect(c.rate_limit).toEqual({ requests_per_minute: 200, unauthenticated_per_minute: 100, login_failures_per_account: 5, login_failures_per_address: 50 });
    expect(c.retention).toEqual({ unreferenced_upload_days: 21, event_queue_idle_minutes: 10 });
    expect(c.backup).toEqual({ dir: "", every_hours: 24, keep: 7, gzip: true });
    expect(c.metrics).toEqual({ enabled: false, host: "127.0.0.1", port: 0, token: "" });
  });

  test("the default data dir is ./parley-data", () => {
    expect(loadConfig({}, {}).data_dir).toBe(join(process.cwd(), "parley-data"));
  });
});

describe("precedence: flag > environment > TOML > default", () => {
  const toml = file("p.toml", '[server]\nport = 8000\nhost = "0.0.0.0"\n[limits]\nmax_message_length = 500\n');

  test("TOML beats the defaults", () => {
    const c = loadConfig({ config: toml }, {});
    expect(c.server.port).toBe(8000);
    expect(c.limits.max_message_length).toBe(500);
    expect(c.limits.max_topic_length).toBe(60);
  });

  test("environment beats TOML, flags beat environment", () => {
    const env = { PARLEY_CONFIG: toml, PARLEY_PORT: "8100", PARLEY_HOST: "127.0.0.2", PARLEY_DATA_DIR: "/env/dir" };
    const c = loadConfig({}, env);
    expect([c.server.port, c.server.host, c.data_dir]).toEqual([8100, "127.0.0.2", "/env/dir"]);
    const f = loadConfig({ port: 8200, host: "127.0.0.3", dataDir: "/flag/dir" }, env);
    expect([f.server.port, f.server.host, f.data_dir]).toEqual([8200, "127.0.0.3", "/flag/dir"]);
  });
});

describe("bad config names the key", () => {
  test("an unknown key", () => {
    expect(() => parseConfig({ server: { prot: 1 } })).toThrow("unknown config key 'server.prot'");
    expect(() => parseConfig({ serverr: {} })).toThrow("unknown config key 'serverr'");
  });

  test("a wrong type", () => {
    expect(() => parseConfig({ server: { port: "http" } })).toThrow(/config key 'server\.port'/);
    expect(() => parseConfig({ limits: { max_message_length: 0 } })).toThrow(/config key 'limits\.max_message_length'/);
  });

  test("an unreadable or invalid file", () => {
    expect(() => loadConfig({ config: join(dir, "missing.toml") }, {})).toThrow(ConfigError);
    expect(() => loadConfig({ config: file("bad.toml", "[server\nport=") }, {})).toThrow(/not valid TOML/);
  });

  test("a bad PARLEY_PORT", () => {
    expect(() => loadConfig({}, { PARLEY_PORT: "99999" })).toThrow("PARLEY_PORT must be a port number");
  });
});

describe("[backup]", () => {
  test("a relative dir is under the data dir; every_hours, keep and gzip are read", () => {
    const c = loadConfig({ dataDir: "/srv/parley", config: file("b.toml", '[backup]\ndir = "backups"\nevery_hours = 0.5\nkeep = 3\ngzip = false\n') }, {});
    expect(c.backup).toEqual({ dir: "/srv/parley/backups", every_hours: 0.5, keep: 3, gzip: false });
    expect(loadConfig({ dataDir: "/srv/parley", config: file("b2.toml", '[backup]\ndir = "/mnt/usb/parley"\n') }, {}).backup.dir).toBe("/mnt/usb/parley");
  });

  test("bad values name the key", () => {
    expect(() => parseConfig({ backup: { every_hours: 0 } })).toThrow(/config key 'backup\.every_hours'/);
    expect(() => parseConfig({ backup: { keep: 0 } })).toThrow(/config key 'backup\.keep'/);
    expect(() => parseConfig({ backup: { keep: 2.5 } })).toThrow(/config key 'backup\.keep'/);
    expect(() => parseConfig({ backup: { dir: 7 } })).toThrow(/config key 'backup\.dir'/);
    expect(() => parseConfig({ backup: { gzip: "yes" } })).toThrow(/config key 'backup\.gzip'/);
    expect(() => parseConfig({ backup: { every: 1 } })).toThrow("unknown config key 'backup.every'");
  });
});

describe("[metrics]", () => {
  test("on the main port they need a token; on a port of their own they do not", () => {
    expect(() => loadConfig({ config: file("m1.toml", "[metrics]\nenabled = true\n") }, {})).toThrow(
      "config key 'metrics.token': required when metrics are served on the main port (or set metrics.port for a separate listener)",
    );
    expect(loadConfig({ config: file("m2.toml", '[metrics]\nenabled = true\ntoken = "t0k"\n') }, {}).metrics).toEqual({ enabled: true, host: "127.0.0.1", port: 0, token: "t0k" });
    expect(loadConfig({ config: file("m3.toml", '[metrics]\nenabled = true\nhost = "0.0.0.0"\nport = 9992\n') }, {}).metrics).toEqual({ enabled: true, host: "0.0.0.0", port: 9992, token: "" });
    // off, a missing token is nobody's business
    expect(loadConfig({ config: file("m4.toml", "[metrics]\nport = 9992\n") }, {}).metrics.enabled).toBe(false);
  });

  test("bad values name the key", () => {
    expect(() => parseConfig({ metrics: { enabled: "yes" } })).toThrow(/config key 'metrics\.enabled'/);
    expect(() => parseConfig({ metrics: { port: 70000 } })).toThrow(/config key 'metrics\.port'/);
    expect(() => parseConfig({ metrics: { path: "/m" } })).toThrow("unknown config key 'metrics.path'");
  });
});

describe("[server] HTTPS and trusted proxies", () => {
  test("tls_cert and tls_key are read relative to the config file's folder, and external_url defaults to https", () => {
    const sub = join(dir, "etc");
    mkdirSync(sub, { recursive: true });
    const p = join(sub, "tls.toml");
    writeFileSync(p, '[server]\nport = 8443\ntls_cert = "cert.pem"\ntls_key = "/abs/key.pem"\n');
    const c = loadConfig({ config: p }, {});
    expect(c.server.tls_cert).toBe(join(sub, "cert.pem"));
    expect(c.server.tls_key).toBe("/abs/key.pem");
    expect(c.server.external_url).toBe("https://127.0.0.1:8443");
  });

  test("an explicit external_url is kept with TLS on (a public name behind the certificate)", () => {
    const c = loadConfig({ config: file("tls2.toml", '[server]\ntls_cert = "c.pem"\ntls_key = "k.pem"\nexternal_url = "https://chat.example.com/"\n') }, {});
    expect(c.server.external_url).toBe("https://chat.example.com");
  });

  test("a certificate without its key, or a key without its certificate, names the missing key", () => {
    expect(() => loadConfig({ config: file("c-only.toml", '[server]\ntls_cert = "c.pem"\n') }, {})).toThrow("config key 'server.tls_key' is required with 'server.tls_cert'");
    expect(() => loadConfig({ config: file("k-only.toml", '[server]\ntls_key = "k.pem"\n') }, {})).toThrow("config key 'server.tls_cert' is required with 'server.tls_key'");
  });

  test("trusted_proxies takes addresses and CIDR ranges, IPv4 and IPv6", () => {
    const c = loadConfig({ config: file("proxies.toml", '[server]\ntrusted_proxies = ["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8"]\n') }, {});
    expect(c.server.trusted_proxies).toEqual(["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8"]);
  });

  test("a trusted_proxies entry that is not an address or range, or not a list, names the key", () => {
    for (const bad of ['["localhost"]', '["10.0.0.0/33"]', '["10.0.0.1/8/2"]', '["::1/129"]', '["10.0.0.0/x"]']) {
      expect(() => loadConfig({ config: file("bad-proxy.toml", `[server]\ntrusted_proxies = ${bad}\n`) }, {})).toThrow(/^config key 'server\.trusted_proxies': '.*' is not an IP address or a CIDR range$/);
    }
    expect(() => parseConfig({ server: { trusted_proxies: "10.0.0.1" } })).toThrow("config key 'server.trusted_proxies': expected array");
  });
});

describe("[log]", () => {
  test("level and format take their words", () => {
    const c = loadConfig({ config: file("log.toml", '[log]\nlevel = "warn"\nformat = "json"\n') }, {});
    expect(c.log).toEqual({ level: "warn", format: "json" });
  });

  test("another word names the key and the words it takes", () => {
    expect(() => parseConfig({ log: { level: "loud" } })).toThrow(`config key 'log.level': must be one of "debug", "info", "warn", "error"`);
    expect(() => parseConfig({ log: { format: "xml" } })).toThrow(`config key 'log.format': must be one of "text", "json"`);
    expect(() => parseConfig({ log: { colour: true } })).toThrow("unknown config key 'log.colour'");
  });
});

describe("[memory]", () => {
  test("the defaults suit a Raspberry Pi, and a file may change each bound", () => {
    expect(loadConfig({}, {}).memory).toEqual({ sqlite_cache_mib: 2, statement_cache_kib: 64, image_threads: 1, malloc_arena_max: 2, malloc_trim_seconds: 60, release_start_up_pages: true, release_file_pages_seconds: 0, js_heap_growth: 2, js_ftl_jit: false });
    const c = loadConfig({ config: file("memory.toml", "[memory]\nsqlite_cache_mib = 8\nstatement_cache_kib = 32\nimage_threads = 2\nmalloc_arena_max = 0\nmalloc_trim_seconds = 0\nrelease_start_up_pages = false\nrelease_file_pages_seconds = 600\n") }, {});
    expect(c.memory).toEqual({ sqlite_cache_mib: 8, statement_cache_kib: 32, image_threads: 2, malloc_arena_max: 0, malloc_trim_seconds: 0, release_start_up_pages: false, release_file_pages_seconds: 600, js_heap_growth: 2, js_ftl_jit: false });
  });

  test("a bound out of range names the key", () => {
    expect(() => parseConfig({ memory: { image_threads: 0 } })).toThrow("config key 'memory.image_threads'");
    expect(() => parseConfig({ memory: { sqlite_cache_mib: 0 } })).toThrow("config key 'memory.sqlite_cache_mib'");
    expect(() => parseConfig({ memory: { malloc_arena_max: -1 } })).toThrow("config key 'memory.malloc_arena_max'");
    expect(() => parseConfig({ memory: { release_file_pages_seconds: -1 } })).toThrow("config key 'memory.release_file_pages_seconds'");
    expect(() => parseConfig({ memory: { arenas: 2 } })).toThrow("unknown config key 'memory.arenas'");
  });
});
