import type { TSchema } from "elysia";
import { Value } from "@sinclair/typebox/value";
import { badRequest, missingArgument, ZulipError } from "../errors";

/**
 * A request's parameters the way Zulip reads them: query string and body together (body first),
 * whatever the method; JSON-in-field encodings decoded per the declared schema; everything an
 * endpoint did not read reported as ignored_parameters_unsupported.
 */
export class Params {
  private readonly used = new Set<string>(["client"]);
  /** `raw` has no prototype: a parameter named `__proto__` or `constructor` is a parameter like any other. */
  constructor(readonly raw: Record<string, unknown>) {}

  /** Decodes and validates the parameters named by `schema` (a t.Object). Throws Zulip's errors. */
  read<S extends TSchema>(schema: S): S["static"] {
    const out: Record<string, unknown> = {};
    for (const f of fieldsOf(schema)) {
      let given: string | undefined;
      let second: string | undefined;
      for (const n of f.names) {
        this.used.add(n);
        if (this.raw[n] === undefined) continue;
        if (given === undefined) given = n;
        else second ??= n;
      }
      if (second !== undefined && this.raw[given!] !== this.raw[second]) {
        throw new ZulipError("REQUEST_CONFUSING_VAR", `Can't decide between '${given}' and '${second}' arguments`, 400);
      }
      if (given === undefined) {
        const d = f.default;
        // objects are copied so a handler cannot change the schema's default; primitives need no copy
        if (d !== undefined) out[f.name] = typeof d === "object" && d !== null ? structuredClone(d) : d;
        else if (f.required) throw missingArgument(f.name);
        continue;
      }
      out[f.name] = decode(f.name, f.prop, this.raw[given]);
    }
    return out as S["static"];
  }

  /** The files of a multipart body, whatever their field names (Zulip reads request.FILES so). */
  files(): File[] {
    const out: File[] = [];
    for (const [k, v] of Object.entries(this.raw)) {
      if (!(v instanceof File)) continue;
      this.used.add(k);
      out.push(v);
    }
    return out;
  }

  /** Names sent but never read (sorted), for ignored_parameters_unsupported. */
  ignored(): string[] {
    return Object.keys(this.raw)
      .filter((k) => !this.used.has(k))
      .sort();
  }

  /** The success envelope, with ignored_parameters_unsupported when something was not read. */
  success<T extends object>(data?: T): { result: "success"; msg: "" } & T {
    const ignored = this.ignored();
    return {
      result: "success",
      msg: "",
      ...(data ?? ({} as T)),
      ...(ignored.length ? { ignored_parameters_unsupported: ignored } : {}),
    };
  }
}

interface Field {
  name: string;
  /** the name and its aliases, in the order they are looked for */
  names: string[];
  prop: TSchema;
  required: boolean;
  default: unknown;
}
const fieldCache = new WeakMap<object, Field[]>();

/** A t.Object's fields, worked out once per schema (every request of an endpoint reads the same one). */
function fieldsOf(schema: TSchema): Field[] {
  let fields = fieldCache.get(schema);
  if (fields) return fields;
  const props = (schema as any).properties as Record<string, TSchema>;
  const required = new Set<string>((schema as any).required ?? []);
  fields = Object.entries(props).map(([name, prop]) => ({
    name,
    names: [name, ...(((prop as any).aliases as string[]) ?? [])],
    prop,
    required: required.has(name),
    default: (prop as any).default,
  }));
  fieldCache.set(schema, fields);
  return fields;
}

/**
 * A list parameter whose schema declares no bound takes at most this many items (routes declare
 * their own, often smaller, bounds): it keeps every statement under SQLite's 32,766 bound values and
 * the work per request in proportion.
 */
export const MAX_LIST_ITEMS = 10_000;

/**
 * Object keys that name JavaScript's prototype machinery. A JSON parameter carrying one at any depth
 * is refused where the schema does not refuse it already: code below the routes may then look keys
 * up in plain objects without meeting Object.prototype.
 */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);
/** Cheap test on the raw text first: such a key is spelled out, or hidden behind a \u escape. */
const MAY_HOLD_PROTOTYPE_KEY = /__proto__|constructor|prototype|\\u/;

/** Decodes one raw value against its schema and validates it. */
export function decode(name: string, declared: TSchema, raw: unknown): unknown {
  const schema = strict(declared);
  let value = raw;
  let parsed = false;
  if (typeof raw === "string" && !acceptsRawString(schema)) {
    try {
      value = JSON.parse(raw);
      parsed = true;
    } catch {
      if (acceptsString(schema)) value = raw;
      else throw badRequest(`${name} is not valid JSON`);
    }
  } else if (raw instanceof File && !(schema as any).file) {
    throw badRequest(`${name} is not a string`);
  }
  if ((schema as any).file) return raw;
  if (!Value.Check(schema, value)) throw badRequest(describe(name, schema, value));
  if (parsed && MAY_HOLD_PROTOTYPE_KEY.test(raw as string)) {
    const key = prototypeKeyIn(value);
    if (key !== null) throw badRequest(`Invalid ${name}: the key "${key}" is not allowed`);
  }
  return value;
}

/** The first prototype-naming key anywhere in a decoded JSON value, or null. */
function prototypeKeyIn(value: unknown): string | null {
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v !== "object" || v === null) continue;
    if (Array.isArray(v)) {
      for (const item of v) stack.push(item); // (a spread of a long list would overflow the call stack)
      continue;
    }
    for (const key of Object.keys(v)) {
      if (PROTOTYPE_KEYS.has(key)) return key;
      stack.push((v as Record<string, unknown>)[key]);
    }
  }
  return null;
}

const strictCache = new WeakMap<object, TSchema>();

/**
 * Elysia's t.Integer()/t.Numeric() accept a numeric *string* as well (anyOf [string format integer,
 * integer]). Zulip's parameters are strict JSON, so those unions are reduced to their number member,
 * recursively (symbols kept, so TypeBox still recognises the schema). Lists without a bound get
 * MAX_LIST_ITEMS.
 */
function strict(schema: TSchema): TSchema {
  const cached = strictCache.get(schema);
  if (cached) return cached;
  const s = schema as any;
  let out: any = s;
  if (Array.isArray(s.anyOf)) {
    const numeric = s.anyOf.find((m: any) => m.type === "integer" || m.type === "number");
    const coercing = s.anyOf.length === 2 && numeric && s.anyOf.some((m: any) => m.type === "string" && (m.format === "integer" || m.format === "numeric"));
    if (coercing) {
      const { anyOf: _a, ...outer } = s;
      out = { ...numeric, ...outer };
      for (const sym of Object.getOwnPropertySymbols(numeric)) out[sym] = numeric[sym];
    } else {
      out = { ...s, anyOf: s.anyOf.map(strict) };
    }
  } else if (s.type === "array" && s.items) {
    out = { ...s, items: strict(s.items), maxItems: s.maxItems ?? MAX_LIST_ITEMS };
  } else if (s.type === "object" && s.properties) {
    out = { ...s, properties: Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, strict(v as TSchema)])) };
  }
  for (const sym of Object.getOwnPropertySymbols(s)) if (!(sym in out)) out[sym] = s[sym];
  strictCache.set(schema, out);
  return out;
}

/** A plain string parameter takes the form value as is; only JSON-typed ones are decoded. */
function acceptsRawString(schema: any): boolean {
  return schema.type === "string";
}
function acceptsString(schema: any): boolean {
  if (schema.type === "string") return true;
  return Array.isArray(schema.anyOf) && schema.anyOf.some(acceptsString);
}

/** Zulip's error text for the first thing wrong with `value` (typed_endpoint's ERROR_TEMPLATES). */
function describe(name: string, schema: any, value: unknown): string {
  if (schema.anyOf) {
    const literals = schema.anyOf.every((s: any) => s.const !== undefined);
    if (literals) return `Invalid ${name}`;
    const match = schema.anyOf.find((s: any) => sameKind(s, value));
    return match ? describe(name, match, value) : `${name} is not ${article(schema.anyOf[0])}`;
  }
  if (schema.const !== undefined) return `Invalid ${name}`;
  if (!sameKind(schema, value)) return `${name} is not ${article(schema)}`;
  switch (schema.type) {
    case "string": {
      const s = value as string;
      if (schema.minLength && s.length < schema.minLength) return `${name} cannot be blank`;
      if (schema.maxLength !== undefined && s.length > schema.maxLength)
        return `${name} is too long (limit: ${schema.maxLength} characters)`;
      if (schema.enum) return `Invalid ${name}`;
      return `${name} has invalid format`;
    }
    case "integer":
    case "number": {
      const n = value as number;
      if (schema.minimum !== undefined && n < schema.minimum) return `${name} is too small`;
      if (schema.maximum !== undefined && n > schema.maximum) return `${name} is too large`;
      return `Invalid ${name}`;
    }
    case "array": {
      const items = value as unknown[];
      if (schema.maxItems !== undefined && items.length > schema.maxItems) return `${name} is too long (limit: ${schema.maxItems} items)`;
      for (let i = 0; i < items.length; i++) {
        if (!Value.Check(schema.items, items[i])) return describe(`${name}[${i}]`, schema.items, items[i]);
      }
      return `Invalid ${name}`;
    }
    case "object": {
      const obj = value as Record<string, unknown>;
      const props = schema.properties ?? {};
      for (const key of schema.required ?? []) if (!Object.hasOwn(obj, key)) return `${name}["${key}"] field is missing`;
      for (const [key, v] of Object.entries(obj)) {
        if (!Object.hasOwn(props, key)) {
          if (schema.additionalProperties === false) return `Argument "${key}" at ${name} is unexpected`;
          if (typeof schema.additionalProperties === "object" && !Value.Check(schema.additionalProperties, v))
            return describe(`${name}["${key}"]`, schema.additionalProperties, v);
          continue;
        }
        if (!Value.Check(props[key], v)) return describe(`${name}["${key}"]`, props[key], v);
      }
      return `Invalid ${name}`;
    }
  }
  return `Invalid ${name}`;
}

function sameKind(schema: any, value: unknown): boolean {
  switch (schema.type) {
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "null":
      return value === null;
  }
  if (schema.anyOf) return schema.anyOf.some((s: any) => sameKind(s, value));
  return true;
}

function article(schema: any): string {
  switch (schema.type) {
    case "boolean":
      return "a boolean";
    case "integer":
      return "an integer";
    case "number":
      return "a float";
    case "string":
      return "a string";
    case "array":
      return "a list";
    case "object":
      return "a dict";
    case "null":
      return "null";
  }
  if (schema.anyOf) return article(schema.anyOf[0]);
  return "valid";
}

/** A path segment that must be an integer id (`/messages/{message_id}`). */
export function pathInt(value: string | undefined, name: string): number {
  if (value === undefined || !/^\d+$/.test(value) || value.length > 15) throw badRequest(`Invalid ${name}`);
  return Number(value);
}
