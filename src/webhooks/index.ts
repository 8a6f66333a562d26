import { alertmanager, grafana, homeassistant } from "./alerts";
import { gitea } from "./gitea";
import { github } from "./github";
import { gitlab } from "./gitlab";
import { json } from "./json";
import { sentry } from "./sentry";
import { slackIncoming } from "./slack-incoming";
import type { Integration } from "./types";

/** Every incoming-webhook integration, by the name in its URL (/api/v1/external/<name>). */
export const INTEGRATIONS: ReadonlyMap<string, Integration> = new Map([json, slackIncoming, github, gitlab, gitea, grafana, alertmanager, homeassistant, sentry].map((i) => [i.name, i]));

export type { Integration, WebhookMessage, WebhookRequest } from "./types";
export { MissingEventHeader, UnsupportedEvent } from "./types";
export { fnmatch } from "./fnmatch";
export { parsePayload } from "./parse";
export { Wild } from "./wild";
