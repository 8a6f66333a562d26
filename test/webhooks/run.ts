import { readFileSync } from "node:fs";
import { join } from "node:path";
import { INTEGRATIONS, Wild, type WebhookMessage } from "../../src/webhooks";

/** Runs an integration's pure function on a payload, as the webhook route would after parsing. */
export function run(integration: string, payload: unknown, headers: Record<string, string> = {}, params: Record<string, string> = {}): WebhookMessage[] {
  return INTEGRATIONS.get(integration)!.handle({ payload: new Wild(payload), headers: new Headers(headers), params });
}

/** One message expected: its topic and body. */
export function one(integration: string, payload: unknown, headers: Record<string, string> = {}, params: Record<string, string> = {}): WebhookMessage {
  const out = run(integration, payload, headers, params);
  if (out.length !== 1) throw new Error(`expected one message, got ${out.length}`);
  return out[0]!;
}

/** A fixture of ours: test/webhooks/fixtures/<integration>/<name>.json. */
export const fixture = (integration: string, name: string): any => JSON.parse(readFileSync(join(import.meta.dir, "fixtures", integration, `${name}.json`), "utf8"));
