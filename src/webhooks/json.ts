import { badRequest } from "../errors";
import type { Integration } from "./types";

/** Python's json.dumps(payload, indent=2): non-ASCII characters escaped (ensure_ascii), "key": value. */
export function pythonJsonDumps(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u0080-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

/** Zulip's JSON integration (zerver/webhooks/json): any JSON object, shown as a code block under the topic "JSON". */
export const json: Integration = {
  name: "json",
  displayName: "JSON",
  handle({ payload }) {
    const v = payload.value;
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw badRequest("payload is not a dict");
    return [{ topic: "JSON", body: "```json\n" + pythonJsonDumps(v) + "\n```" }];
  },
};
