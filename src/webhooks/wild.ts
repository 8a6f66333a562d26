import { badRequest } from "../errors";

/**
 * A value from a webhook payload, read the way Zulip's WildValue reads it: each step names its path
 * (`payload['pull_request']['number']`), so a payload of the wrong shape is refused with a message that
 * says where, instead of a crash. Only own keys are read (payloads are parsed without prototypes).
 */
export class Wild {
  constructor(
    readonly value: unknown,
    readonly path = "payload",
  ) {}

  private isObject(): this is { value: Record<string, unknown> } {
    return typeof this.value === "object" && this.value !== null && !Array.isArray(this.value);
  }

  /** The child at `key`; throws "<path> is missing" when absent, "<path> is not a dict" when not an object. */
  at(key: string): Wild {
    if (!this.isObject()) throw badRequest(`${this.path} is not a dict`);
    const path = `${this.path}['${key}']`;
    if (!Object.hasOwn(this.value, key)) throw badRequest(`${path} is missing`);
    return new Wild(this.value[key], path);
  }

  /** The child at `key`, or a Wild of undefined when absent (Python's payload.get(key)). */
  get(key: string): Wild {
    if (!this.isObject() || !Object.hasOwn(this.value, key)) return new Wild(undefined, `${this.path}['${key}']`);
    return new Wild(this.value[key], `${this.path}['${key}']`);
  }

  has(key: string): boolean {
    return this.isObject() && Object.hasOwn(this.value, key);
  }

  /** Python truthiness: null, "", 0, false, [] and {} are false. */
  get truthy(): boolean {
    const v = this.value;
    if (Array.isArray(v)) return v.length > 0;
    if (typeof v === "object" && v !== null) return Object.keys(v).length > 0;
    return Boolean(v);
  }

  str(): string {
    if (typeof this.value !== "string") throw badRequest(`${this.path} is not a string`);
    return this.value;
  }

  /** Python's str() of the value, whatever its type ("None" when absent): for text that shows any value. */
  py(): string {
    const v = this.value;
    if (typeof v === "string") return v;
    if (v === null || v === undefined) return "None";
    if (typeof v === "boolean") return v ? "True" : "False";
    return typeof v === "number" ? String(v) : JSON.stringify(v);
  }

  strOrNull(): string | null {
    return this.value === null || this.value === undefined ? null : this.str();
  }

  int(): number {
    if (typeof this.value !== "number" || !Number.isInteger(this.value)) throw badRequest(`${this.path} is not an integer`);
    return this.value;
  }

  num(): number {
    if (typeof this.value !== "number") throw badRequest(`${this.path} is not a number`);
    return this.value;
  }

  bool(): boolean {
    if (typeof this.value !== "boolean") throw badRequest(`${this.path} is not a boolean`);
    return this.value;
  }

  /** The elements of a list (none when absent or null). */
  list(): Wild[] {
    if (this.value === undefined || this.value === null) return [];
    if (!Array.isArray(this.value)) throw badRequest(`${this.path} is not a list`);
    return this.value.map((v, i) => new Wild(v, `${this.path}[${i}]`));
  }

  keys(): string[] {
    return this.isObject() ? Object.keys(this.value) : [];
  }
}
