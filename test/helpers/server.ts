import { expect } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeApp, openApp, type App, type Clock } from "../../src/app";
import { loadConfig } from "../../src/config/load";
import { createOrganization } from "../../src/actions/organization";
import { createUser } from "../../src/actions/users";
import { ROLE } from "../../src/domain/roles";
import { createServer, type Server } from "../../src/server";
import type { Event } from "../../src/events/queue";
import { validateResponse } from "./openapi";

/** What a current Zulip client declares at /register (captureEvents queues use it). */
export const MODERN_CAPABILITIES = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  include_deactivated_groups: true,
  user_settings_object: true,
  stream_typing_notifications: true,
  archived_channels: true,
};

/** A clock tests can move. */
export class FakeClock implements Clock {
  constructor(public ms = Date.UTC(2026, 0, 1)) {}
  now() {
    return this.ms;
  }
  advance(ms: number) {
    this.ms += ms;
  }
}

export interface Named {
  id: number;
  email: string;
  apiKey: string;
  client: Client;
}

/** The named users every suite gets (Zulip's test cast). */
export const CAST = {
  desdemona: { fullName: "Desdemona", role: ROLE.owner },
  iago: { fullName: "Iago", role: ROLE.administrator },
  shiva: { fullName: "Shiva", role: ROLE.moderator },
  hamlet: { fullName: "King Hamlet", role: ROLE.member },
  othello: { fullName: "Othello, the Moor of Venice", role: ROLE.member },
  cordelia: { fullName: "Cordelia, Lear's daughter", role: ROLE.member },
  polonius: { fullName: "Polonius", role: ROLE.guest },
} as const;
export type CastName = keyof typeof CAST;

export interface TestServer {
  app: App;
  server: Server;
  clock: FakeClock;
  dataDir: string;
  users: Record<CastName, Named>;
  /** A client with no credentials. */
  anonymous: Client;
  /** A client for any user id / api key. */
  clientFor(email: string, apiKey: string): Client;
  /** Runs fn and returns the events each named user's queue received meanwhile. */
  captureEvents(fn: () => Promise<unknown>): Promise<CapturedEvents>;
  close(): Promise<void>;
}

export interface CapturedEvents {
  /** events received by the named user */
  of(name: CastName): Event[];
  /** events received by any user id */
  ofUser(userId: number): Event[];
  /** every distinct event type seen */
  types(): string[];
}

export interface StartOptions {
  /** TOML-shaped overrides applied on top of defaults */
  config?: (c: ReturnType<typeof loadConfig>) => void;
  realClock?: boolean;
  heartbeatMs?: number;
  /** create the organization and the cast (default true) */
  seed?: boolean;
  /** the organization's new users get Parley's defaults for a new organization (Enter sends) instead of Zulip's */
  parleyUserDefaults?: boolean;
  /** the store through @libsql/client, as with a remote libSQL server */
  viaClient?: boolean;
}

/** Boots the app in-process on a fresh temp data dir with the cast of named users. */
export async function startServer(opts: StartOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "parley-test-"));
  const config = loadConfig({ dataDir }, {});
  config.rate_limit.requests_per_minute = 0;
  config.rate_limit.unauthenticated_per_minute = 0;
  config.server.external_url = "http://parley.test";
  opts.config?.(config);
  const clock = new FakeClock();
  const app = await openApp(config, {
    quiet: !process.env.PARLEY_LOG,
    clock: opts.realClock ? undefined : clock,
    heartbeatMs: () => opts.heartbeatMs ?? 50_000,
    // PARLEY_TEST_VIA_CLIENT=1 (npm run test:client-path): every suite on the remote code path
    viaClient: opts.viaClient ?? !!process.env.PARLEY_TEST_VIA_CLIENT,
  });
  const server = createServer(app);
  const clientFor = (email: string, apiKey: string) => new Client(server, { email, apiKey });
  const users = {} as Record<CastName, Named>;
  if (opts.seed !== false) {
    const owner = await createOrganization(app, {
      name: "Zulip Dev",
      ownerEmail: "desdemona@zulip.com",
      ownerFullName: CAST.desdemona.fullName,
      ownerPassword: null,
      // Zulip's own defaults, as in Zulip's test organizations (the journeys send with Ctrl+Enter)
      userSettingsDefaults: opts.parleyUserDefaults ? undefined : {},
    });
    users.desdemona = { id: owner.userId, email: owner.email, apiKey: owner.apiKey, client: clientFor(owner.email, owner.apiKey) };
    for (const [name, info] of Object.entries(CAST)) {
      if (name === "desdemona") continue;
      const u = await createUser(app, null, { email: `${name}@zulip.com`, fullName: info.fullName, password: null, role: info.role });
      users[name as CastName] = { id: u.userId, email: u.email, apiKey: u.apiKey, client: clientFor(u.email, u.apiKey) };
    }
  }
  return {
    app,
    server,
    clock,
    dataDir,
    users,
    anonymous: new Client(server, null),
    clientFor,
    async captureEvents(fn) {
      const queues = new Map<number, ReturnType<App["events"]["register"]>>();
      const ids = (await app.db.all<{ id: number }>("SELECT id FROM users")).map((r) => r.id);
      for (const id of ids) {
        queues.set(
          id,
          app.events.register({ userId: id, eventTypes: null, applyMarkdown: true, clientGravatar: false, allPublicStreams: false, narrow: [], capabilities: MODERN_CAPABILITIES, lifespanSecs: 0, clientName: "test" }),
        );
      }
      try {
        await fn();
      } finally {
        // A queue may already be gone (its user was deactivated meanwhile).
        for (const [id, q] of queues) if (app.events.hasQueues(id)) try { app.events.delete(q.id, id); } catch {}
      }
      const byUser = new Map<number, Event[]>();
      for (const [id, q] of queues) byUser.set(id, q.events.map(({ id: _id, ...e }) => e as Event));
      return {
        of: (name) => byUser.get(users[name].id) ?? [],
        ofUser: (id) => byUser.get(id) ?? [],
        types: () => [...new Set([...byUser.values()].flat().map((e) => e.type))].sort(),
      };
    },
    async close() {
      await closeApp(app);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type ParamValue = string | number | boolean | null | object | File | undefined;

/**
 * A Zulip API client over app.handle. Bodies are form-encoded the way real clients send them:
 * strings raw, everything else JSON-encoded.
 */
export class Client {
  constructor(
    private readonly server: Server,
    private readonly auth: { email: string; apiKey: string } | null,
  ) {}

  get(path: string, params: Record<string, ParamValue> = {}) {
    return this.request("GET", path, params);
  }
  post(path: string, params: Record<string, ParamValue> = {}) {
    return this.request("POST", path, params);
  }
  patch(path: string, params: Record<string, ParamValue> = {}) {
    return this.request("PATCH", path, params);
  }
  delete(path: string, params: Record<string, ParamValue> = {}) {
    return this.request("DELETE", path, params);
  }

  /** Sends a request under /api/v1 (or an absolute path starting with "/" outside it when raw is set). */
  async request(method: string, path: string, params: Record<string, ParamValue> = {}, opts: { multipart?: boolean; headers?: Record<string, string>; raw?: boolean } = {}): Promise<ApiResponse> {
    const url = new URL((opts.raw ? "" : "/api/v1") + path, "http://parley.test");
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (this.auth) headers.authorization = "Basic " + btoa(`${this.auth.email}:${this.auth.apiKey}`);
    let body: BodyInit | undefined;
    const entries = Object.entries(params).filter(([, v]) => v !== undefined) as [string, Exclude<ParamValue, undefined>][];
    if (method === "GET" || method === "HEAD") {
      for (const [k, v] of entries) url.searchParams.append(k, encode(v) as string);
    } else if (opts.multipart || entries.some(([, v]) => v instanceof File)) {
      const form = new FormData();
      for (const [k, v] of entries) form.append(k, v instanceof File ? v : (encode(v) as string));
      body = form;
    } else if (entries.length) {
      body = new URLSearchParams(entries.map(([k, v]) => [k, encode(v) as string]));
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    const response = await this.server.handle(new Request(url, { method, headers, body }));
    const text = await response.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const result = new ApiResponse(method, url.pathname, response, text, json);
    if (json !== undefined && !opts.raw) validateResponse(method, url.pathname, response.status, json);
    return result;
  }
}

function encode(v: Exclude<ParamValue, undefined>): string | File {
  if (v instanceof File) return v;
  return typeof v === "string" ? v : JSON.stringify(v);
}

export class ApiResponse {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly response: Response,
    readonly text: string,
    readonly json: any,
  ) {}

  get status() {
    return this.response.status;
  }
  header(name: string) {
    return this.response.headers.get(name);
  }

  /** Asserts a success envelope and returns the body. */
  success(): any {
    if (this.json?.result !== "success") {
      throw new Error(`${this.method} ${this.path} expected success, got ${this.status}: ${this.text}`);
    }
    expect(this.status).toBe(200);
    expect(this.json.msg).toBe("");
    return this.json;
  }

  /** Asserts an error envelope with exactly this msg (and code, status when given); returns the body. */
  error(msg: string, code = "BAD_REQUEST", status?: number): any {
    if (this.json?.result !== "error") {
      throw new Error(`${this.method} ${this.path} expected error '${msg}', got ${this.status}: ${this.text}`);
    }
    expect(this.json.msg).toBe(msg);
    expect(this.json.code).toBe(code);
    if (status !== undefined) expect(this.status).toBe(status);
    else expect(this.status).toBeGreaterThanOrEqual(400);
    return this.json;
  }
}
