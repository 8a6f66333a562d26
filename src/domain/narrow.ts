/**
 * Narrows (Zulip's search filters): parsing the `narrow` parameter in both its modern form
 * (`{operator, operand, negated}`) and the legacy pair form (`["stream", "Denmark"]`), naming
 * operators canonically, and the in-memory predicate used for event-queue narrows.
 */
import { ZulipError, badRequest } from "../errors";

export type Operand = string | number | number[];
export interface NarrowTerm {
  operator: string;
  operand: Operand;
  negated: boolean;
}

export const badNarrow = (desc: string) => new ZulipError("BAD_NARROW", `Invalid narrow operator: ${desc}`, 400, { desc });

const SUPPORTS_ID = new Set(["id", "stream", "channel", "sender", "group-pm-with", "dm-including", "with"]);
const SUPPORTS_IDS = new Set(["pm-with", "dm"]);

/** Validates one element of the narrow list (Zulip's narrow_parameter). */
function parseTerm(elem: unknown): NarrowTerm {
  if (Array.isArray(elem)) {
    if (elem.length !== 2 || elem.some((x) => typeof x !== "string")) throw badRequest("Invalid narrow: element is not a string pair");
    return { operator: elem[0] as string, operand: elem[1] as string, negated: false };
  }
  if (typeof elem !== "object" || elem === null) throw badRequest("Invalid narrow: element is not a dictionary");
  const e = elem as Record<string, unknown>;
  if (e.operator === undefined) throw badRequest('elem["operator"] key is missing from elem');
  if (typeof e.operator !== "string") throw badRequest('elem["operator"] is not a string');
  if (e.operand === undefined) throw badRequest('elem["operand"] key is missing from elem');
  const op = e.operator;
  const operand = e.operand;
  const isInt = (v: unknown) => typeof v === "number" && Number.isInteger(v);
  if (SUPPORTS_ID.has(op)) {
    if (typeof operand !== "string" && !isInt(operand)) throw badRequest('elem["operand"] is not a string or an integer');
  } else if (SUPPORTS_IDS.has(op)) {
    const ok = typeof operand === "string" || isInt(operand) || (Array.isArray(operand) && operand.every(isInt));
    if (!ok) throw badRequest('elem["operand"] is not a string, an integer or a list of integers');
    if (Array.isArray(operand) && operand.length > MAX_OPERAND_IDS) throw badRequest(`elem["operand"] is too long (limit: ${MAX_OPERAND_IDS} items)`);
  } else if (op === "search") {
    if (typeof operand !== "string") throw badRequest('elem["operand"] is not a string');
    if (operand.trim() === "") throw badRequest('elem["operand"] cannot be blank');
  } else if (typeof operand !== "string") throw badRequest('elem["operand"] is not a string');
  if (e.negated !== undefined && typeof e.negated !== "boolean") throw badRequest('elem["negated"] is not a boolean');
  for (const k of Object.keys(e)) if (!["operator", "operand", "negated"].includes(k)) throw badRequest(`Argument "${k}" at elem is unexpected`);
  return { operator: op, operand: operand as Operand, negated: e.negated === true };
}

const CANONICAL = new Map(Object.entries({
  stream: "channel",
  streams: "channels",
  subject: "topic",
  "pm-with": "dm",
  "group-pm-with": "dm-including",
}));
const canonical = (operator: string) => CANONICAL.get(operator) ?? operator;

/** A narrow holds at most this many terms (a real one holds a handful). */
export const MAX_NARROW_TERMS = 100;
/** A dm operand names at most this many users. */
const MAX_OPERAND_IDS = 1000;

/** Parses a decoded `narrow` value into canonical terms (channel, channels, topic, dm, is:dm, ...). */
export function parseNarrow(value: unknown): NarrowTerm[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badRequest("narrow is not a list");
  if (value.length > MAX_NARROW_TERMS) throw badRequest(`narrow is too long (limit: ${MAX_NARROW_TERMS} items)`);
  return value.map(parseTerm).map((t) => {
    const operator = canonical(t.operator);
    let operand = t.operand;
    if (operator === "is" && operand === "private") operand = "dm";
    if (typeof operand === "string" && operator !== "search" && operator !== "topic") operand = operand.trim();
    return { operator, operand, negated: t.negated };
  });
}

export const KNOWN_OPERATORS = new Set(["channel", "channels", "topic", "sender", "dm", "dm-including", "is", "has", "id", "with", "near", "search", "in"]);
export const IS_OPERANDS = new Set(["dm", "starred", "unread", "mentioned", "alerted", "resolved", "muted", "followed"]);
export const HAS_OPERANDS = new Set(["link", "attachment", "image", "reaction"]);

/** The search words and quoted phrases of a `search` operand. */
export function searchTerms(operand: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  for (const m of operand.matchAll(re)) {
    const t = (m[1] ?? m[2] ?? "").trim();
    if (t) out.push(t);
  }
  return out;
}

/** The integer ids of a dm/dm-including/sender operand given as ids ("1,2" or [1, 2] or 7), else null. */
export function operandIds(operand: Operand): number[] | null {
  if (typeof operand === "number") return [operand];
  if (Array.isArray(operand)) return operand;
  return null;
}

/** What the in-memory predicate needs to know about a message, from the receiving user's view. */
export interface NarrowableMessage {
  type: "stream" | "private";
  streamName?: string;
  streamId?: number;
  topic: string;
  senderEmail: string;
  senderId: number;
  flags: readonly string[];
}

/**
 * Whether a message matches an event-queue narrow (POST /register `narrow`, legacy pairs).
 * Supports the operators Zulip's build_narrow_predicate does; anything else never matches.
 */
export function matchesQueueNarrow(narrow: [string, string][], m: NarrowableMessage): boolean {
  for (const [rawOp, operand] of narrow) {
    const op = canonical(rawOp);
    const o = operand.toLowerCase();
    switch (op) {
      case "channel":
        if (m.type !== "stream" || (m.streamName ?? "").toLowerCase() !== o) return false;
        break;
      case "topic":
        if (m.type !== "stream" || m.topic.toLowerCase() !== o) return false;
        break;
      case "sender":
        if (m.senderEmail.toLowerCase() !== o) return false;
        break;
      case "is":
        if (o === "dm" || o === "private") {
          if (m.type !== "private") return false;
        } else if (o === "starred" || o === "mentioned" || o === "unread") {
          if (o === "unread" ? m.flags.includes("read") : !m.flags.includes(o)) return false;
        } else if (o === "alerted") {
          if (!m.flags.includes("has_alert_word")) return false;
        } else return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
