/**
 * Small hand-written decoders that say what a client app needs from a response, field by field,
 * with the app's own rules (Dart's `json['x'] as T` needs the key present and non-null, `as T?`
 * takes absent or null; Python's `d["x"]` needs the key). `problems(shape, value)` lists every
 * place the app's decoder would throw, each naming the app class (or function) and the field.
 */

export type Problems = string[];
export interface Shape {
  /** what the value is, for messages ("int", "Subscription", ...) */
  describe: string;
  check(value: unknown, at: string, out: Problems): void;
}

/** How an object field is read. */
interface Field {
  shape: Shape;
  /** "required": present and non-null; "optional": absent, null or the shape; "present": key present, value null or the shape */
  mode: "required" | "optional" | "present";
}
type FieldSpec = Shape | Field;

const kindOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "list" : typeof v);

function leaf(describe: string, test: (v: unknown) => boolean): Shape {
  return {
    describe,
    check(v, at, out) {
      if (!test(v)) out.push(`${at}: expected ${describe}, got ${kindOf(v)} ${JSON.stringify(v)?.slice(0, 80)}`);
    },
  };
}

export const int = leaf("int", (v) => Number.isInteger(v));
export const num = leaf("num", (v) => typeof v === "number" && Number.isFinite(v));
export const str = leaf("String", (v) => typeof v === "string");
export const bool = leaf("bool", (v) => typeof v === "boolean");
/** any non-null value (an enum read with an "unknown" fallback still needs a value) */
export const anyValue = leaf("a value", (v) => v !== null && v !== undefined);
/** an absolute http(s) URL (a Dart http.Request needs the host) */
export const absoluteUrl = leaf("absolute URL", (v) => typeof v === "string" && /^https?:\/\/[^/]+/.test(v));
/** a "#rrggbb" colour, as Subscription._readColor parses it */
export const color = leaf("#rrggbb", (v) => typeof v === "string" && /^#[0-9a-f]{6}$/.test(v));

/** One of fixed values (an enum decoded without an "unknown" fallback). */
export function oneOf(...values: (string | number)[]): Shape {
  return leaf(`one of ${values.map((v) => JSON.stringify(v)).join("|")}`, (v) => values.includes(v as any));
}

export function optional(shape: Shape): Field {
  return { shape, mode: "optional" };
}
/** Python's `d["x"]` on a value that may be None: the key must be there. */
export function present(shape: Shape): Field {
  return { shape, mode: "present" };
}

export function list(item: Shape, opts: { sorted?: boolean } = {}): Shape {
  return {
    describe: `List<${item.describe}>`,
    check(v, at, out) {
      if (!Array.isArray(v)) return void out.push(`${at}: expected List<${item.describe}>, got ${kindOf(v)}`);
      v.forEach((x, i) => item.check(x, `${at}[${i}]`, out));
      if (opts.sorted && v.some((x, i) => i > 0 && !(x > v[i - 1]))) out.push(`${at}: expected sorted without duplicates, got ${JSON.stringify(v)}`);
    },
  };
}

/** A JSON object used as a map; `intKeys` when the app does `int.parse(key)`. */
export function map(value: Shape, opts: { intKeys?: boolean } = {}): Shape {
  return {
    describe: `Map<${opts.intKeys ? "int" : "String"}, ${value.describe}>`,
    check(v, at, out) {
      if (kindOf(v) !== "object") return void out.push(`${at}: expected a map, got ${kindOf(v)}`);
      for (const [k, x] of Object.entries(v as object)) {
        if (opts.intKeys && !/^-?\d+$/.test(k)) out.push(`${at}: key ${JSON.stringify(k)} is not an int`);
        value.check(x, `${at}[${JSON.stringify(k)}]`, out);
      }
    },
  };
}

/**
 * An object decoded by an app class: `name` is the class (or function) that reads it, and
 * each field's key is the wire name. `refine` adds the class's own checks (e.g. fields required
 * only for one message type).
 */
export function obj(name: string, fields: Record<string, FieldSpec>, refine?: (v: Record<string, any>, at: string, out: Problems) => void): Shape {
  return {
    describe: name,
    check(v, at, out) {
      const here = at ? `${at} (${name})` : name;
      if (kindOf(v) !== "object") return void out.push(`${here}: expected an object, got ${kindOf(v)}`);
      const o = v as Record<string, unknown>;
      for (const [key, spec] of Object.entries(fields)) {
        const f: Field = "mode" in spec ? spec : { shape: spec, mode: "required" };
        const path = `${here}.${key}`;
        const has = key in o && o[key] !== undefined;
        if (!has) {
          if (f.mode !== "optional") out.push(`${path}: missing`);
          continue;
        }
        if (o[key] === null) {
          if (f.mode === "required") out.push(`${path}: null`);
          continue;
        }
        f.shape.check(o[key], path, out);
      }
      refine?.(o, here, out);
    },
  };
}

/** The first of several shapes chosen by a predicate on the value (Dart's `switch` on the JSON). */
export function either(describe: string, pick: (v: unknown) => Shape | string): Shape {
  return {
    describe,
    check(v, at, out) {
      const s = pick(v);
      if (typeof s === "string") out.push(`${at}: ${s}`);
      else s.check(v, at, out);
    },
  };
}

/** Everything the app's decoder would choke on in `value` (empty: it decodes). */
export function problems(shape: Shape, value: unknown, at = ""): Problems {
  const out: Problems = [];
  shape.check(value, at, out);
  return out;
}
