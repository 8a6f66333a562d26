import { badRequest } from "../errors";

/** The deepest nesting a payload may have: real ones stay under 20; a deeper one is an attack on the parser's callers. */
export const MAX_PAYLOAD_DEPTH = 64;

const malformed = () => badRequest("Malformed JSON");
const tooDeep = () => badRequest(`Payload nested deeper than ${MAX_PAYLOAD_DEPTH} levels`);

/**
 * Parses a webhook's JSON body: at most `maxBytes` long, at most MAX_PAYLOAD_DEPTH deep, and with its
 * objects built without a prototype, so `__proto__` or `constructor` in a payload is an ordinary key.
 * Anything else is Zulip's "Malformed JSON" (400).
 */
export function parsePayload(text: string, maxBytes: number): unknown {
  // a UTF-16 length within the bound is a byte length within 3× it: only a long text is measured
  if (text.length * 3 > maxBytes && Buffer.byteLength(text) > maxBytes) throw badRequest(`Payload larger than ${Math.floor(maxBytes / 1024)} KiB`);
  let value: unknown;
  try {
    // JavaScriptCore's JSON.parse is iterative: any depth parses without exhausting the stack, and the
    // copy below, which recurses, refuses what is too deep (one walk, no scan of the text beforehand)
    value = JSON.parse(text);
  } catch {
    throw malformed();
  }
  return detach(value, 0);
}

/** Copies parsed objects into prototype-less ones (JSON.parse already makes `__proto__` an own key), counting depth. */
function detach(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_PAYLOAD_DEPTH) throw tooDeep();
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = detach(value[i], depth + 1);
    return out;
  }
  const out: Record<string, unknown> = Object.create(null);
  for (const k in value) out[k] = detach((value as Record<string, unknown>)[k], depth + 1);
  return out;
}
