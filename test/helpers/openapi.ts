/**
 * Validates API responses against Zulip's OpenAPI description (../shared/reference/zulip-openapi.yaml), the way
 * Zulip's own test-suite does (zerver/openapi/openapi.py): $refs resolved, allOf parts merged into one schema
 * (union of properties and required, so `additionalProperties: false` parts combine), OpenAPI 3.0 `nullable`
 * turned into JSON-schema type unions, example/description/x-* keywords dropped.
 *
 * - Success responses: the documented schema for the status (else "2XX", else "default"); top-level
 *   `additionalProperties: false` means "only documented keys", plus `ignored_parameters_unsupported`.
 * - Error responses (>= 400) of documented operations: only the envelope (result "error", msg, code).
 * - Undocumented paths/methods/statuses, a missing yaml file, or PARLEY_SKIP_OPENAPI=1: nothing is checked.
 *
 * The yaml is parsed lazily once per process; each operation's schema is compiled once and cached.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

/** Repo root is two levels up from test/helpers; the reference folder sits beside the repo. */
export const OPENAPI_SPEC_PATH = join(import.meta.dir, "..", "..", "..", "shared", "reference", "zulip-openapi.yaml");

/**
 * Whether Zulip's OpenAPI file is beside the clone (CI and the team have it; a newcomer's clone has no
 * ../shared). Tests that need it skip when it is absent, and say so once on stderr.
 */
export function haveOpenApiSpec(needed: string): boolean {
  if (existsSync(OPENAPI_SPEC_PATH)) return true;
  console.warn(`notice: ${OPENAPI_SPEC_PATH} is absent (a clone without ../shared beside it): skipping ${needed}`);
  return false;
}

type Json = any;
type Segment = { kind: "literal"; text: string } | { kind: "id" } | { kind: "any" };
interface Route {
  template: string;
  segments: Segment[];
  item: Record<string, Json>;
}

const STRIPPED = new Set(["example", "examples", "description", "title", "deprecated", "readOnly", "writeOnly", "externalDocs"]);
const SCHEMA_MAPS = new Set(["properties", "patternProperties"]);
const SCHEMA_VALUES = new Set(["items", "additionalProperties", "not"]);
const SCHEMA_LISTS = new Set(["allOf", "oneOf", "anyOf"]);
const IGNORED_PARAMETERS = { type: "array", items: { type: "string" } };
const ERROR_ENVELOPE = {
  type: "object",
  required: ["result", "msg", "code"],
  properties: { result: { const: "error" }, msg: { type: "string" }, code: { type: "string" } },
};

export class OpenApiValidator {
  private doc: Json | null | undefined; // undefined = not loaded yet, null = no spec file
  private routes = new Map<number, Route[]>(); // by segment count
  private routeCache = new Map<string, Route | null>();
  private resolvedRefs = new Map<string, Json>();
  private converted = new WeakMap<object, Json>();
  private validators = new Map<string, ValidateFunction | null>();
  private ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  /** Milliseconds spent reading + parsing the yaml (0 until loaded). */
  loadMs = 0;

  constructor(readonly specPath: string) {}

  /** Throws when `body` does not match the documented response; silently accepts anything undocumented. */
  validate(method: string, path: string, status: number, body: unknown): void {
    const doc = this.load();
    if (!doc) return;
    const route = this.findRoute(path);
    const verb = method.toLowerCase();
    const op = route?.item[verb];
    if (!route || !op || typeof op !== "object") return;
    const key = `${verb} ${route.template} ${status}`;
    let validator = this.validators.get(key);
    if (validator === undefined) {
      const schema = status >= 400 ? ERROR_ENVELOPE : this.successSchema(op.responses ?? {}, status);
      validator = schema ? this.ajv.compile(schema) : null;
      this.validators.set(key, validator);
    }
    if (!validator || validator(body)) return;
    throw new Error(
      `OpenAPI: ${method.toUpperCase()} ${path} (${status}) does not match the schema of ${verb} ${route.template}:\n` +
        formatErrors(validator.errors ?? []),
    );
  }

  private load(): Json | null {
    if (this.doc !== undefined) return this.doc;
    const t0 = performance.now();
    if (!existsSync(this.specPath)) return (this.doc = null);
    this.doc = parse(readFileSync(this.specPath, "utf8"));
    addSpecFields(this.doc);
    for (const [template, item] of Object.entries<Json>(this.doc.paths ?? {})) {
      const segments = template.split("/").filter(Boolean).map(segmentOf);
      const list = this.routes.get(segments.length) ?? [];
      list.push({ template, segments, item });
      this.routes.set(segments.length, list);
    }
    this.loadMs = performance.now() - t0;
    return this.doc;
  }

  /** The documented path template for a request path (/api/v1 or /json prefix); literals beat parameters. */
  findRoute(requestPath: string): Route | null {
    if (!this.load()) return null;
    const cached = this.routeCache.get(requestPath);
    if (cached !== undefined) return cached;
    let path = requestPath.split("?")[0]!;
    if (path.startsWith("/api/v1/")) path = path.slice("/api/v1".length);
    else if (path.startsWith("/json/")) path = path.slice("/json".length);
    else return null;
    const parts = path.split("/").filter(Boolean).map(safeDecode);
    let best: Route | null = null;
    for (const route of this.routes.get(parts.length) ?? []) {
      if (!route.segments.every((seg, i) => matches(seg, parts[i]!))) continue;
      if (!best || moreSpecific(route, best)) best = route;
    }
    this.routeCache.set(requestPath, best);
    return best;
  }

  private successSchema(responses: Json, status: number): Json | null {
    const code = String(status);
    let response = responses[code] ?? responses[`${code[0]}XX`] ?? responses[`${code[0]}xx`] ?? responses.default;
    while (response && typeof response.$ref === "string") response = this.pointer(response.$ref);
    const raw = response?.content?.["application/json"]?.schema;
    if (!raw) return null;
    return allowIgnoredParameters(this.convert(this.resolve(raw)));
  }

  private pointer(ref: string): Json {
    if (!ref.startsWith("#/")) throw new Error(`OpenAPI: external $ref not supported: ${ref}`);
    let node = this.doc;
    for (const raw of ref.slice(2).split("/")) {
      node = node?.[raw.replace(/~1/g, "/").replace(/~0/g, "~")];
    }
    if (node === undefined) throw new Error(`OpenAPI: dangling $ref ${ref}`);
    return node;
  }

  /** Pass 1: $refs inlined, allOf merged (Zulip's naive merge), documentation keywords dropped. */
  private resolve(node: Json): Json {
    if (Array.isArray(node)) return node.map((n) => this.resolve(n));
    if (!node || typeof node !== "object") return node;
    if (typeof node.$ref === "string") {
      const { $ref, ...rest } = node;
      let base = this.resolvedRefs.get($ref);
      if (base === undefined) {
        base = this.resolve(this.pointer($ref));
        this.resolvedRefs.set($ref, base);
      }
      if (!Object.keys(rest).some(isSchemaKey)) return base;
      return this.resolve({ ...rest, allOf: [{ $ref }, ...(rest.allOf ?? [])] });
    }
    const out: Json = {};
    for (const [key, value] of Object.entries<Json>(node)) {
      if (key === "allOf" || !isSchemaKey(key)) continue;
      if (SCHEMA_MAPS.has(key)) {
        out[key] = Object.fromEntries(Object.entries<Json>(value ?? {}).map(([k, v]) => [k, this.resolve(v)]));
      } else if (SCHEMA_VALUES.has(key) || SCHEMA_LISTS.has(key)) {
        out[key] = this.resolve(value);
      } else {
        out[key] = value;
      }
    }
    if (!Array.isArray(node.allOf)) return out;
    return node.allOf.reduce((acc: Json, part: Json) => naivelyMerge(acc, this.resolve(part)), out);
  }

  /** Pass 2: OpenAPI 3.0 → JSON schema (nullable → type unions, oneOf → anyOf). */
  private convert(node: Json): Json {
    if (Array.isArray(node)) return node.map((n) => this.convert(n));
    if (!node || typeof node !== "object") return node;
    const done = this.converted.get(node);
    if (done) return done;
    let out: Json = {};
    for (const [key, value] of Object.entries<Json>(node)) {
      if (key === "nullable") continue;
      if (SCHEMA_MAPS.has(key)) {
        out[key] = Object.fromEntries(Object.entries<Json>(value ?? {}).map(([k, v]) => [k, this.convert(v)]));
      } else if (SCHEMA_VALUES.has(key)) {
        out[key] = this.convert(value);
      } else if (key === "oneOf" || key === "anyOf") {
        // Documented alternatives often overlap once loosened; "matches one of them" is the useful check.
        out.anyOf = [...(out.anyOf ?? []), ...this.convert(value)];
      } else {
        out[key] = value;
      }
    }
    if (node.nullable === true) out = nullable(out);
    this.converted.set(node, out);
    return out;
  }
}

/** Fields our spec (../seed/api-spec.md) shows that the 10.2 yaml predates (FL 433: users' is_imported_stub). */
function addSpecFields(doc: Json) {
  const user = doc?.components?.schemas?.User?.allOf?.[1]?.properties;
  if (user) user.is_imported_stub = { type: "boolean" };
  addChannelSpecFields(doc);
}

/**
 * Channel fields newer than the 10.2 yaml that our spec names (folder_id FL 389, topics_policy FL 392,
 * per-channel delete/move/resolve/topic groups FL 407, subscriber_count), added to every channel-shaped
 * schema (those listing can_subscribe_group); plus channel_folders in /register (FL 389) and
 * new_subscription_messages_sent in the subscribe response.
 */
function addChannelSpecFields(doc: Json) {
  const group = { oneOf: [{ type: "integer" }, { type: "object", properties: { direct_members: { type: "array" }, direct_subgroups: { type: "array" } } }] };
  const extra: Record<string, Json> = {
    folder_id: { type: "integer", nullable: true },
    topics_policy: { type: "string", enum: ["inherit", "allow_empty_topic", "disable_empty_topic", "empty_topic_only"] },
    subscriber_count: { type: "integer" },
    can_create_topic_group: group,
    can_delete_any_message_group: group,
    can_delete_own_message_group: group,
    can_move_messages_out_of_channel_group: group,
    can_move_messages_within_channel_group: group,
    can_resolve_topics_group: group,
  };
  const seen = new Set<object>();
  const walk = (node: Json) => {
    if (!node || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    if (node.properties && typeof node.properties === "object" && "can_subscribe_group" in node.properties) {
      for (const [k, v] of Object.entries(extra)) node.properties[k] ??= v;
    }
    for (const v of Object.values(node)) walk(v);
  };
  walk(doc?.components?.schemas);
  walk(doc?.paths);
  const ok = (path: string, verb: string) => doc?.paths?.[path]?.[verb]?.responses?.["200"]?.content?.["application/json"]?.schema?.allOf?.[1]?.properties;
  const register = ok("/register", "post");
  if (register) {
    register.channel_folders ??= { type: "array", items: { type: "object" } };
    // realm settings and limits newer than 10.2 that our spec relies on (FL 392 topics_policy, FL 407
    // delete-policy group, FL 410 channel folders, FL 416 welcome message text)
    const groupValue = { oneOf: [{ type: "integer" }, { type: "object" }] };
    register.realm_topics_policy ??= { type: "string", enum: ["allow_empty_topic", "disable_empty_topic"] };
    register.realm_can_set_delete_message_policy_group ??= groupValue;
    register.realm_can_set_topics_policy_group ??= groupValue;
    register.realm_welcome_message_custom_text ??= { type: "string" };
    register.max_channel_folder_name_length ??= { type: "integer" };
    register.max_channel_folder_description_length ??= { type: "integer" };
  }
  const subscribe = ok("/users/me/subscriptions", "post");
  if (subscribe) subscribe.new_subscription_messages_sent ??= { type: "boolean" };
  // Parley's own (beyond Zulip): the VAPID key browsers subscribe to Web Push with
  const webPushKey = { type: "string", pattern: "^[A-Za-z0-9_-]+$" };
  const settings = ok("/server_settings", "get");
  if (settings) settings.web_push_vapid_public_key ??= webPushKey;
  if (register) register.web_push_vapid_public_key ??= webPushKey;
}

function isSchemaKey(key: string): boolean {
  return !STRIPPED.has(key) && !key.startsWith("x-");
}

function segmentOf(text: string): Segment {
  const param = /^\{(.+)\}$/.exec(text)?.[1];
  if (param === undefined) return { kind: "literal", text };
  return /id$/.test(param) ? { kind: "id" } : { kind: "any" };
}

function matches(seg: Segment, part: string): boolean {
  if (seg.kind === "literal") return seg.text === part;
  if (seg.kind === "id") return /^\d+$/.test(part);
  return part.length > 0;
}

const RANK = { literal: 2, id: 1, any: 0 } as const;
function moreSpecific(a: Route, b: Route): boolean {
  for (let i = 0; i < a.segments.length; i++) {
    const d = RANK[a.segments[i]!.kind] - RANK[b.segments[i]!.kind];
    if (d !== 0) return d > 0;
  }
  return false;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Zulip's (yamole's) allOf merge: missing keys copied, lists concatenated, objects merged, else first wins. */
function naivelyMerge(a: Json, b: Json): Json {
  if (!a || typeof a !== "object" || !b || typeof b !== "object") return a ?? b;
  const out: Json = { ...a };
  for (const [key, bv] of Object.entries<Json>(b)) {
    const av = out[key];
    if (av === undefined) out[key] = bv;
    else if (Array.isArray(av) && Array.isArray(bv)) out[key] = [...new Set([...av, ...bv])];
    else if (av && typeof av === "object" && !Array.isArray(av) && bv && typeof bv === "object" && !Array.isArray(bv)) {
      out[key] = naivelyMerge(av, bv);
    }
  }
  return out;
}

function nullable(schema: Json): Json {
  if (typeof schema.type === "string") schema.type = [schema.type, "null"];
  else if (Array.isArray(schema.type) && !schema.type.includes("null")) schema.type = [...schema.type, "null"];
  else if (schema.type === undefined) return { anyOf: [schema, { type: "null" }] };
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  return schema;
}

/** Every success response may carry `ignored_parameters_unsupported` (Zulip 7.0+), documented or not. */
function allowIgnoredParameters(schema: Json): Json {
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: schema.anyOf.map(allowIgnoredParameters) };
  if (!schema.properties && schema.additionalProperties !== false) return schema;
  return { ...schema, properties: { ...schema.properties, ignored_parameters_unsupported: IGNORED_PARAMETERS } };
}

/**
 * With alternatives (e.g. the event types of GET /events), ajv reports every branch's failures; drop the
 * branches whose `type`/`op` tag already differs, so the message shows the alternative that was meant.
 */
function relevantErrors(errors: ErrorObject[]): ErrorObject[] {
  const branchOf = (e: ErrorObject) => /^(.*\/anyOf\/\d+)\//.exec(e.schemaPath)?.[1];
  const mismatched = new Set<string>();
  for (const e of errors) {
    const branch = branchOf(e);
    if (branch && /\/(type|op)$/.test(e.instancePath) && (e.keyword === "enum" || e.keyword === "const")) mismatched.add(branch);
  }
  if (!mismatched.size) return errors;
  const kept = errors.filter((e) => ![...mismatched].some((b) => e.schemaPath.startsWith(b + "/")));
  return kept.some((e) => e.keyword !== "anyOf") ? kept : errors;
}

function formatErrors(all: ErrorObject[]): string {
  const errors = relevantErrors(all);
  const lines = errors.slice(0, 25).map((e) => {
    const where = e.instancePath || "/";
    const extra = Object.entries(e.params ?? {})
      .filter(([k]) => ["additionalProperty", "missingProperty", "allowedValues", "type"].includes(k))
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
      .join(", ");
    return `  ${where} ${e.message}${extra ? ` (${extra})` : ""}`;
  });
  if (errors.length > 25) lines.push(`  … and ${errors.length - 25} more`);
  return lines.join("\n");
}

let shared: OpenApiValidator | undefined;

/** Called by test/helpers/server.ts for every JSON response. */
export function validateResponse(method: string, path: string, status: number, body: unknown): void {
  if (process.env.PARLEY_SKIP_OPENAPI === "1") return;
  (shared ??= new OpenApiValidator(OPENAPI_SPEC_PATH)).validate(method, path, status, body);
}
