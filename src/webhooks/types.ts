import { ZulipError } from "../errors";
import type { Wild } from "./wild";

/** What an integration receives: the parsed body, the request's headers and its query parameters. */
export interface WebhookRequest {
  payload: Wild;
  headers: { get(name: string): string | null };
  /** query string (and form fields), e.g. `branches`, `topic` */
  params: Record<string, string | undefined>;
  /** the full names of the active users whose external account (see Integration.externalAccount) is the payload's author */
  accountHolders?: string[];
}

/** A message to post: the topic (replaced by the URL's `topic` when given) and the Markdown body. */
export interface WebhookMessage {
  topic: string;
  body: string;
  /** the event's name for only_events / exclude_events (Zulip's complete_event_type); none: never filtered */
  event?: string;
}

/** An integration: payload + headers → messages (none: the event is ignored, answered with success). */
export interface Integration {
  /** the name in the URL, /api/v1/external/<name> */
  name: string;
  /** the name Zulip's error messages and client name use ("GitHub", "SlackIncoming") */
  displayName: string;
  /** the payload's form: JSON body (default), or Slack's `payload` form field as well */
  acceptsFormPayload?: boolean;
  /** answers as Slack's webhook does: `ok: true` beside success, `{ok: false, error}` for a refused payload */
  answersLikeSlack?: boolean;
  /** Zulip's all_event_types: the event names only_events / exclude_events can name (none: not filterable) */
  eventTypes?: readonly string[];
  /** the account on the tool that acted, to name its Parley user instead (Zulip's get_user_by_external_account) */
  externalAccount?(payload: Wild): { subtype: string; name: string } | null;
  handle(req: WebhookRequest): WebhookMessage[];
}

/** Zulip's UnsupportedWebhookEventTypeError: answered with status 200 and result "error", nothing posted. */
export class UnsupportedEvent extends ZulipError {
  constructor(webhookName: string, eventType: string) {
    super("UNSUPPORTED_WEBHOOK_EVENT_TYPE", `The '${eventType}' event isn't currently supported by the ${webhookName} webhook; ignoring`, 200, { webhook_name: webhookName, event_type: eventType });
  }
}

/** Zulip's MissingHTTPEventHeaderError (400); the bot's owner is also told (see actions/webhooks.ts). */
export class MissingEventHeader extends ZulipError {
  constructor(
    readonly header: string,
    readonly integrationName: string,
  ) {
    super("MISSING_HTTP_EVENT_HEADER", `Missing the HTTP event header '${header}'`, 400, { header });
  }
}

/** Zulip's validate_extract_webhook_http_header. */
export function eventHeader(req: WebhookRequest, header: string, integrationName: string): string {
  const value = req.headers.get(header);
  if (value === null) throw new MissingEventHeader(header, integrationName);
  return value;
}
