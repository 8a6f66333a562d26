import { badRequest } from "../errors";

/** The deepest nesting a payload may have: real ones stay under 20; a deeper one is an attack on the parser's callers. */
export const MAX_PAYLOAD_DEPTH = 64;

const malformed = () => badRequest("Malformed JSON");

/**
 * Parses a webhook's JSON body: at most `maxBytes` long, at most MAX_PAYLOAD_DEPTH deep, and with its
 * objects built without a prototype, so `__proto__` or `constructor` in a payload is an ordinary key.
 * Anything else is Zulip's "Malformed JSON" (400).
 */
export function parsePayload(text: string, maxBytes: number): unknown {
  if (Buffer.byteLength(text) > maxBytes) throw badRequest(`Payload larger than ${Math.floor(maxBytes / 1024)} KiB`);
  if (!withinDepth(text)) throw badRequest(`Payload nested deeper than ${MAX_PAYLOAD_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw malformed();
  }
  return detach(value);
}

/** Counts bracket nesting outside strings, before JSON.parse recurses through it. */
function withinDepth(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > MAX_PAYLOAD_DEPTH) return false;
    } else if (c === 125 || c === 93) depth--;
  }
  return true;
}

/** Copies parsed objects into prototype-less ones (JSON.parse already makes `__proto__` an own key). */
function detach(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(detach);
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = Object.create(null);
    for (const k of Object.keys(value)) out[k] = detach((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}
