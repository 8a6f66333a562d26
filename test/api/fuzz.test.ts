/**
 * Bad input never crashes the server: every route gets random and hostile parameter values, as an
 * organization owner (who passes most permission checks, so the checks behind them run too), and
 * every answer must be a documented-looking response, never a 500. Parameter names come from Zulip's
 * OpenAPI description when ../shared/reference holds it, plus names Zulip endpoints commonly take.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { existsSync, readFileSync } from "node:fs";
import { parse } from "yaml";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { sendStream } from "../helpers/messages";
import { OPENAPI_SPEC_PATH } from "../helpers/openapi";

let s: TestServer;
let channelId = 0;
let messageId = 0;
beforeAll(async () => {
  s = await startServer();
  channelId = await createChannel(s, "desdemona", "fuzz", { subscribers: ["hamlet", "othello"] });
  messageId = await sendStream(s, "desdemona", "fuzz", "topic", "hello");
  // spectators read web-public channels: their code runs too when nobody is logged in
  (await s.users.desdemona.client.patch("/realm", { enable_spectator_access: true })).success();
  (await s.users.desdemona.client.patch(`/streams/${channelId}`, { is_web_public: true })).success();
});
afterAll(() => s.close());

const COMMON = ["anchor", "num_before", "num_after", "narrow", "to", "type", "topic", "content", "subscriptions", "principals", "emoji_name", "emoji_code", "reaction_type", "flag", "op", "messages", "stream_id", "message_id", "user_id", "name", "description", "status", "queue_id", "last_event_id", "event_types", "data", "value", "full_name", "email"];

/**
 * Operations that would end the caller's session or the organization itself, leaving the rest of
 * the run unauthenticated: they have tests of their own.
 */
const SELF_ENDING = new Set(["delete /users/me", "post /users/me/api_key/regenerate", "post /realm/deactivate", "post /fetch_api_key", "post /dev_fetch_api_key"]);

interface Operation {
  method: string;
  template: string;
  params: string[];
}

/** Parameter names per "method path template" from the spec (query and body), if the spec is here. */
function specParams(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!existsSync(OPENAPI_SPEC_PATH)) return out;
  const doc = parse(readFileSync(OPENAPI_SPEC_PATH, "utf8"));
  const deref = (x: any): any => (x?.$ref ? deref(x.$ref.slice(2).split("/").reduce((o: any, k: string) => o?.[k], doc)) : x);
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!op || typeof op !== "object" || !Array.isArray(op.parameters) && !op.requestBody) continue;
      const names = (op.parameters ?? []).map(deref).filter((p: any) => p?.in !== "path").map((p: any) => p.name);
      const body = deref(op.requestBody?.content?.["application/x-www-form-urlencoded"]?.schema ?? op.requestBody?.content?.["multipart/form-data"]?.schema);
      names.push(...Object.keys(body?.properties ?? {}));
      out.set(`${method} ${path.replace(/\{[^}]+\}/g, "{}")}`, names);
    }
  }
  return out;
}

function operations(): Operation[] {
  const spec = specParams();
  const seen = new Set<string>();
  const ops: Operation[] = [];
  for (const r of (s.server as any).routes as { method: string; path: string }[]) {
    const method = r.method.toLowerCase();
    if (!r.path.startsWith("/api/v1/") || !["get", "post", "patch", "put", "delete"].includes(method)) continue;
    const template = r.path.replace(/^\/api\/v1/, "").replace(/:[^/]+/g, "{}");
    const key = `${method} ${template}`;
    if (seen.has(key) || SELF_ENDING.has(key)) continue;
    seen.add(key);
    ops.push({ method, template, params: [...new Set([...(spec.get(key) ?? []), ...COMMON])] });
  }
  return ops;
}

/** Values a careless or hostile client might send for any parameter. */
const hostile = fc.oneof(
  fc.constantFrom("", " ", "null", "true", "false", "[]", "{}", "[[]]", "[{}]", '{"a":', "-1", "0", "1", "2147483648", "9007199254740993", "1e309", "NaN", "-0", "0x10", "\u0000", "\uffff", "🙂", "%00", "../../etc/passwd", "<script>", "'; DROP TABLE users; --", "x".repeat(70_000)),
  fc.integer().map(String),
  fc.double().map(String),
  fc.string(),
  fc.json(),
  fc.array(fc.oneof(fc.integer({ min: -5, max: 200 }), fc.string()), { maxLength: 4 }).map((a) => JSON.stringify(a)),
  fc.array(fc.record({ operator: fc.constantFrom("channel", "channels", "stream", "topic", "sender", "search", "is", "dm", "id", "with", "has", "near"), operand: fc.oneof(fc.constant("web-public"), fc.string(), fc.integer(), fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 3 })), negated: fc.boolean() }), { maxLength: 3 }).map((a) => JSON.stringify(a)),
);
const pathValue = fc.oneof(fc.constantFrom("1", "2", "0", "-1", "99999999", "abc", "%20", "1.5", ""), fc.integer({ min: 0, max: 30 }).map(String));

type Encoding = "form" | "json" | "multipart";

async function call(who: "desdemona" | "polonius" | null, op: Operation, segments: string[], params: Record<string, string>, encoding: Encoding = "form") {
  let i = 0;
  const path = "/api/v1" + op.template.replace(/\{\}/g, () => encodeURIComponent(segments[i++] ?? "1"));
  const url = new URL(path, "http://parley.test");
  const headers: Record<string, string> = who ? { authorization: "Basic " + btoa(`${s.users[who].email}:${s.users[who].apiKey}`) } : {};
  let body: BodyInit | undefined;
  if (op.method === "get") for (const [k, v] of Object.entries(params)) url.searchParams.append(k, v);
  else if (encoding === "json") {
    // a JSON body carries values as JSON (numbers, lists, objects) where they parse, else as strings
    const parsed = (v: string) => {
      try {
        return JSON.parse(v);
      } catch {
        return v;
      }
    };
    body = JSON.stringify(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, parsed(v)])));
    headers["content-type"] = "application/json";
  } else if (encoding === "multipart") {
    const form = new FormData();
    for (const [k, v] of Object.entries(params)) form.append(k, v);
    body = form;
  } else {
    body = new URLSearchParams(params).toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
  }
  const res = await s.server.handle(new Request(url, { method: op.method.toUpperCase(), headers, body }));
  const text = await res.text();
  return { status: res.status, text, type: res.headers.get("content-type") ?? "" };
}

// As the owner most permission checks pass and the code behind them runs; as a guest the refusals do.
describe.each([
  ["an owner", "desdemona"],
  ["a guest", "polonius"],
  ["nobody (a spectator)", null],
] as const)("every route, with hostile parameters, as %s", (_, who) => {
  test("answers without a 500, and every error is Zulip's envelope", async () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(100);
    const failures: string[] = [];
    for (const op of ops) {
      const known = [String(channelId), String(messageId)];
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.oneof(pathValue, fc.constantFrom(...known)), { minLength: 3, maxLength: 3 }),
          fc.dictionary(fc.constantFrom(...op.params), hostile, { maxKeys: 4 }),
          fc.constantFrom<Encoding>("form", "json", "multipart"),
          async (segments, params, encoding) => {
            const r = await call(who, op, segments, params, encoding);
            const where = `${op.method.toUpperCase()} ${op.template} (${encoding}) ${JSON.stringify(segments)} ${JSON.stringify(params).slice(0, 300)}`;
            if (r.status >= 500) failures.push(`${r.status} ${where}: ${r.text.slice(0, 200)}`);
            else if (r.status >= 400 && r.type.includes("json")) {
              const j = JSON.parse(r.text);
              if (j.result !== "error" || typeof j.msg !== "string" || typeof j.code !== "string") failures.push(`bad envelope ${where}: ${r.text.slice(0, 200)}`);
            }
            if (/\bat .+\.(ts|js):\d+/.test(r.text)) failures.push(`stack trace ${where}`);
          },
        ),
        // FUZZ_RUNS / FUZZ_SEED: a longer or different search by hand
        { numRuns: Number(process.env.FUZZ_RUNS ?? 12), seed: Number(process.env.FUZZ_SEED ?? 42) },
      );
      // the session must survive the run: a later operation still authenticates
      if (who) expect((await call(who, { method: "get", template: "/users/me", params: [] }, [], {})).status).toBe(200);
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
