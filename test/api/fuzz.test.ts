/**
 * Bad input never crashes the server: every route gets random and hostile parameter values, as an
 * organization owner (who passes most permission checks, so the checks behind them run too), and
 * every answer must be a documented-looking response, never a 500. Parameter names come from Zulip's
 * OpenAPI description when ../shared/reference holds it, plus names Zulip endpoints commonly take.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { sendStream } from "../helpers/messages";
import { haveOpenApiSpec, OPENAPI_SPEC_PATH } from "../helpers/openapi";

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
}, 60_000);
afterAll(() => s.close());

/** Parameter names that name JavaScript's prototype machinery: they must be parameters like any other. */
const PROTOTYPE_NAMES = ["__proto__", "constructor", "prototype"];
const COMMON = [...PROTOTYPE_NAMES, "anchor", "num_before", "num_after", "narrow", "to", "type", "topic", "content", "subscriptions", "principals", "emoji_name", "emoji_code", "reaction_type", "flag", "op", "messages", "stream_id", "message_id", "user_id", "name", "description", "status", "queue_id", "last_event_id", "event_types", "data", "value", "full_name", "email"];

/**
 * Names of the JSON-valued parameters (lists, objects) that Parley's own route schemas declare, so the
 * JSON-only ones Zulip's OpenAPI file does not list (DELETE /users/{id} `actions`) are tried too.
 */
function routeJsonParams(): string[] {
  const dir = join(import.meta.dir, "..", "..", "src", "routes");
  const text = readdirSync(dir).map((f) => readFileSync(join(dir, f), "utf8")).join("\n");
  const found = text.matchAll(/\b([a-z_]+):\s*(?:t\.Optional\(\s*)?(?:t\.(?:Array|Object|Record|Union\(\[\s*t\.Array)|[A-Z][A-Za-z]+\b)/g);
  const notParams = new Set(["app", "args", "me", "p", "s", "e", "f", "h", "headers", "request", "error", "params", "set"]);
  return [...new Set([...found].map((m) => m[1]!))].filter((n) => !notParams.has(n));
}

/**
 * Operations that would end the caller's session or the organization itself, leaving the rest of
 * the run unauthenticated: they have tests of their own.
 */
const SELF_ENDING = new Set(["delete /users/me", "post /users/me/api_key/regenerate", "post /realm/deactivate", "post /fetch_api_key", "post /dev_fetch_api_key"]);

interface Operation {
  method: string;
  template: string;
  /** the names Zulip documents for this endpoint (none without the spec) */
  documented: string[];
}

/** Parameter names per "method path template" from the spec (query and body), if the spec is here. */
function specParams(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!haveOpenApiSpec("the parameter names Zulip documents per endpoint (the fuzz test tries common names only)")) return out;
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
    ops.push({ method, template, documented: spec.get(key) ?? [] });
  }
  return ops;
}

/** A multipart value that is sent as a file (as a string elsewhere). */
const FILE = "<file>";

/** JSON objects whose keys name prototype properties, at the top and deeper down, inside lists too. */
const prototypeKeyed = fc
  .tuple(fc.constantFrom(...PROTOTYPE_NAMES, "toString", "hasOwnProperty", "valueOf"), fc.oneof(fc.json(), fc.constant('{"prototype":{"x":1}}'), fc.constant('{"polluted":true}')), fc.nat({ max: 3 }))
  .map(([key, inner, depth]) => {
    let text = `{${JSON.stringify(key)}:${inner}}`;
    for (let i = 0; i < depth; i++) text = i % 2 ? `{"a":${text}}` : `[${text}]`;
    return text;
  });

/**
 * Long lists: at the bound a route accepts (10,000 items unless it declares less) and one past it, and
 * the 440,000-character list of 50,000 channel names a hostile run once sent.
 */
const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const names = (n: number, prefix = "c") => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const HUGE = [
  JSON.stringify(names(50_000, "channel-name-")),
  ...[10_000, 10_001].flatMap((n) => [JSON.stringify(names(n)), JSON.stringify(ids(n)), ids(n).join(",")]),
  JSON.stringify([{ operator: "dm", operand: ids(1001) }]),
  JSON.stringify(ids(2000).map((i) => ({ name: `c${i}`, stream_id: i, id: i, value: "x", property: "color" }))),
];

/** Values a careless or hostile client might send for any parameter. */
const ordinary = fc.oneof(
  fc.constantFrom(...PROTOTYPE_NAMES, "toString", "hasOwnProperty", '"__proto__"', '["constructor"]', FILE),
  prototypeKeyed,
  fc.constantFrom("", " ", "null", "true", "false", "[]", "{}", "[[]]", "[{}]", '{"a":', "-1", "0", "1", "2147483648", "9007199254740993", "1e309", "NaN", "-0", "0x10", "\u0000", "\uffff", "🙂", "%00", "../../etc/passwd", "<script>", "'; DROP TABLE users; --", "x".repeat(70_000)),
  fc.integer().map(String),
  fc.double().map(String),
  fc.string(),
  fc.json(),
  fc.array(fc.oneof(fc.integer({ min: -5, max: 200 }), fc.string()), { maxLength: 4 }).map((a) => JSON.stringify(a)),
  fc.array(fc.record({ operator: fc.constantFrom("channel", "channels", "stream", "topic", "sender", "search", "is", "dm", "id", "with", "has", "near", "constructor", "__proto__"), operand: fc.oneof(fc.constant("web-public"), fc.string(), fc.integer(), fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 3 })), negated: fc.boolean() }), { maxLength: 3 }).map((a) => JSON.stringify(a)),
);
// big bodies cost time: about one value in a hundred
const hostile = fc.oneof({ arbitrary: ordinary, weight: 99 }, { arbitrary: fc.constantFrom(...HUGE), weight: 1 });
/** What a JSON-valued parameter gets: prototype-named keys and long lists more often. */
const hostileJson = fc.oneof({ arbitrary: ordinary, weight: 4 }, { arbitrary: prototypeKeyed, weight: 4 }, { arbitrary: fc.constantFrom(...HUGE), weight: 1 });

const JSON_PARAMS = routeJsonParams();
/**
 * Up to four parameters: the endpoint's documented ones most often, then the JSON-valued names of
 * Parley's route schemas (with JSON-minded values), then the common names.
 */
function paramsFor(op: Operation): fc.Arbitrary<Record<string, string>> {
  const pairs: fc.WeightedArbitrary<[string, string]>[] = [
    { arbitrary: fc.tuple(fc.constantFrom(...JSON_PARAMS), hostileJson), weight: 2 },
    { arbitrary: fc.tuple(fc.constantFrom(...COMMON), hostile), weight: 1 },
  ];
  if (op.documented.length) pairs.push({ arbitrary: fc.tuple(fc.constantFrom(...op.documented), hostile), weight: 3 });
  return fc.array(fc.oneof(...pairs), { maxLength: 4 }).map((entries) => Object.fromEntries(entries));
}
const pathValue = fc.oneof(fc.constantFrom("1", "2", "0", "-1", "99999999", "abc", "%20", "1.5", "", "constructor", "__proto__"), fc.integer({ min: 0, max: 30 }).map(String));

type Encoding = "form" | "json" | "multipart";

// FUZZ_RUNS / FUZZ_SEED: a longer or different search by hand
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

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
    for (const [k, v] of Object.entries(params)) form.append(k, v === FILE ? new File(["file body"], "f.txt") : v);
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
      const known = [String(channelId), String(messageId), ...Object.values(s.users).map((u) => String(u.id))];
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.oneof(pathValue, fc.constantFrom(...known)), { minLength: 3, maxLength: 3 }),
          paramsFor(op),
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
        { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 42) },
      );
      // the session must survive the run: a later operation still authenticates
      if (who) expect((await call(who, { method: "get", template: "/users/me", documented: [] }, [], {})).status).toBe(200);
    }
    expect(failures).toEqual([]);
  }, 120_000 * Math.max(1, Math.ceil(RUNS / 12)));
});
