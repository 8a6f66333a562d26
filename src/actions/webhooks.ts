import { nowSecs, type App } from "../app";
import type { Sql } from "../store/db";
import { insertWebhookRequest, listWebhookRequests } from "../store/webhooks";
import { accessBotById } from "./bots";
import { badRequest, notFound, ZulipError } from "../errors";
import { findUserById, type UserRow } from "../store/users";
import { listExternalAccountHolders } from "../store/profile-fields";
import { fnmatch, INTEGRATIONS, MissingEventHeader, parsePayload, Wild, type Integration, type WebhookMessage } from "../webhooks";
import { loadDirectory } from "./messages/directory";
import { sendNotificationDm } from "./messages/notification-bot";
import { checkMessageRecipient, deliverMessage, defaultReadBySender } from "./messages/send";

export interface IncomingWebhook {
  integration: string;
  /** the request's body, as text */
  body: string;
  contentType: string;
  headers: { get(name: string): string | null };
  /** query string and form fields */
  params: Record<string, string | undefined>;
}

/** Zulip's text to the bot's owner when a tool posts something other than the JSON it should (notify_bot_owner_about_invalid_json). */
const INVALID_JSON_MESSAGE = (name: string) =>
  `Hi there! It looks like you tried to set up the Zulip ${name} integration,\nbut didn't correctly configure the webhook to send data in the JSON format\nthat this integration expects!`;

/** Zulip's MISSING_EVENT_HEADER_MESSAGE (without the support address, which Parley has not). */
const MISSING_HEADER_MESSAGE = (bot: string, path: string, header: string, integration: string) =>
  `Hi there!  Your bot ${bot} just sent an HTTP request to ${path} that\nis missing the HTTP ${header} header.  Because this header is how\n${integration} indicates the event type, this usually indicates a configuration\nissue, where you either entered the URL for a different integration, or are running\nan older version of the third-party service that doesn't provide that header.`;

/** Whether the integration answers in Slack's shape (Zulip's slack_incoming: `ok` and `error`). */
export const answersLikeSlack = (integration: string) => INTEGRATIONS.get(integration)?.answersLikeSlack === true;

/** POST /api/v1/external/<integration>: turns a tool's payload into messages, as Zulip's webhook_view + check_send_webhook_message. */
export async function receiveWebhook(app: App, sender: UserRow, input: IncomingWebhook): Promise<void> {
  const integration = INTEGRATIONS.get(input.integration);
  if (!integration) throw notFound("Not Found");
  // a bot's last requests are kept for its owner (GET /bots/{id}/webhook_requests), written in the
  // message's own transaction when one is posted: no extra commit on the common path
  const log = sender.is_bot ? new RequestLog(app, sender.id, integration.name, input.body) : null;
  try {
    const payload = await readPayload(app, sender, integration, input);
    let messages: WebhookMessage[];
    try {
      const wild = new Wild(payload);
      const account = integration.externalAccount?.(wild) ?? null;
      const accountHolders = account ? (await listExternalAccountHolders(app.db, sender.realm_id, account.subtype, account.name)).map((u) => u.full_name) : undefined;
      messages = integration.handle({ payload: wild, headers: input.headers, params: input.params, accountHolders });
    } catch (e) {
      if (e instanceof MissingEventHeader) await notifyBotOwner(app, sender, MISSING_HEADER_MESSAGE(sender.full_name, `/api/v1/external/${integration.name}`, e.header, e.integrationName));
      if (e instanceof ZulipError) throw e;
      // a payload of a shape no reader foresaw (a URL that is not one, a number where text was): the tool's mistake, not a 500
      app.log.warn("webhook payload not understood", { integration: integration.name, error: (e as Error)?.message ?? String(e) });
      throw badRequest("Malformed payload");
    }
    const only = eventPatterns(input.params, "only_events");
    const exclude = eventPatterns(input.params, "exclude_events");
    let filtered = 0;
    for (const m of messages) {
      if (log) log.event ??= m.event ?? null;
      if (m.event !== undefined) {
        if ((only && !only.some((p) => fnmatch(m.event!, p))) || (exclude && exclude.some((p) => fnmatch(m.event!, p)))) {
          filtered++;
          continue;
        }
      }
      const problem = await post(app, sender, integration, input.params, m, log?.inTransaction);
      if (problem && log) log.error ??= problem;
    }
    if (log && !messages.length) log.error ??= "Ignored: this event posts nothing";
    else if (log && filtered === messages.length) log.error ??= "Filtered out by only_events / exclude_events";
  } catch (e) {
    if (log && e instanceof ZulipError) {
      log.status = e.httpStatus;
      log.error = e.message;
    }
    throw e;
  } finally {
    await log?.flush();
  }
}

/** The longest excerpt of a payload kept for the owner to look at. */
const PAYLOAD_EXCERPT = 4000;

/** One request's record, written with the first message posted or, failing that, at the end. */
class RequestLog {
  event: string | null = null;
  status = 200;
  error: string | null = null;
  private written = false;
  private readonly received: number;

  constructor(
    private readonly app: App,
    private readonly botId: number,
    private readonly integration: string,
    private readonly body: string,
  ) {
    this.received = nowSecs(app);
  }

  private row() {
    return { bot_id: this.botId, integration: this.integration, received: this.received, event: this.event, status: this.status, error: this.error, payload: this.body.slice(0, PAYLOAD_EXCERPT) };
  }

  readonly inTransaction = async (sql: Sql) => {
    if (this.written) return;
    this.written = true;
    await insertWebhookRequest(sql, this.row());
  };

  async flush() {
    if (this.written) return;
    this.written = true;
    await this.app.db.tx((sql) => insertWebhookRequest(sql, this.row()));
  }
}

/** GET /bots/{bot_id}/webhook_requests: the last requests a bot's incoming webhook received, newest first (its owner or an administrator). */
export async function listBotWebhookRequests(app: App, actor: UserRow, botId: number) {
  const bot = await accessBotById(app, actor, botId);
  return (await listWebhookRequests(app.db, bot.id)).map(({ id, integration, received, event, status, error, payload }) => ({ id, integration, timestamp: received, event, status, error, payload }));
}

async function readPayload(app: App, sender: UserRow, integration: Integration, input: IncomingWebhook): Promise<unknown> {
  const maxBytes = app.config.webhooks.max_payload_kib * 1024;
  // Slack's tools post `payload=<json>` form-encoded as often as a JSON body
  const isJson = /^application\/json\b/i.test(input.contentType);
  let text = input.body;
  if (integration.acceptsFormPayload && !isJson) {
    const field = input.params.payload;
    if (field === undefined) throw new ZulipError("REQUEST_VARIABLE_MISSING", "Missing 'payload' argument", 400, { var_name: "payload" });
    text = field;
  }
  try {
    return parsePayload(text, maxBytes);
  } catch (e) {
    if (e instanceof ZulipError && e.message === "Malformed JSON") {
      await notifyBotOwner(app, sender, INVALID_JSON_MESSAGE(integration.displayName));
      throw new ZulipError("INVALID_JSON", "Malformed JSON", 400);
    }
    throw e;
  }
}

/** only_events / exclude_events: JSON lists of fnmatch patterns; absent: no filter. */
function eventPatterns(params: Record<string, string | undefined>, name: string): string[] | null {
  const raw = params[name];
  if (raw === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badRequest(`${name} is not valid JSON`);
  }
  if (!Array.isArray(value)) throw badRequest(`${name} is not a list`);
  value.forEach((v, i) => {
    if (typeof v !== "string") throw badRequest(`${name}[${i}] is not a string`);
  });
  return value as string[];
}

/**
 * Zulip's check_send_webhook_message: into the `stream` (a name, or an id when all digits) under the
 * URL's `topic` or the integration's; with no stream, a direct message to the bot's owner. A channel
 * that does not exist is not an error for the tool: the owner is told instead.
 */
async function post(app: App, sender: UserRow, integration: Integration, params: Record<string, string | undefined>, m: WebhookMessage, inTransaction?: (sql: Sql) => Promise<void>): Promise<string | null> {
  const clientName = `Zulip${integration.displayName}Webhook`;
  const d = await loadDirectory(app);
  const stream = params.stream;
  const opts = { clientName, readBySender: defaultReadBySender(clientName), inTransaction };
  if (stream === undefined) {
    const ownerId = sender.bot_owner_id ?? sender.id;
    const addressee = await checkMessageRecipient(app, sender, { type: "direct", to: [ownerId] }, d);
    await deliverMessage(app, d, sender, addressee, m.body, opts);
    return null;
  }
  const byId = /^\d+$/.test(stream);
  let addressee;
  try {
    addressee = await checkMessageRecipient(app, sender, { type: "stream", to: byId ? Number(stream) : stream, topic: params.topic ?? m.topic }, d);
  } catch (e) {
    if (e instanceof ZulipError && e.code === "STREAM_DOES_NOT_EXIST") {
      const where = byId ? `channel ID ${stream}, but there is no channel with that ID.` : `channel #**${stream}**, but that channel does not exist. Click [here](#channels/new) to create it.`;
      await notifyBotOwner(app, sender, `Your bot \`${sender.delivery_email}\` tried to send a message to ${where}`);
      return e.message;
    }
    throw e;
  }
  await deliverMessage(app, d, sender, addressee, m.body, opts);
  if (addressee.kind === "stream" && (await d.subscriberIds(app.db, addressee.stream.id)).length === 0) {
    await notifyBotOwner(app, sender, `Your bot \`${sender.delivery_email}\` tried to send a message to channel #**${addressee.stream.name}**. The channel exists but does not have any subscribers.`);
  }
  return null;
}

const lastNotice = new WeakMap<App, Map<number, number>>();
/** Zulip's BOT_OWNER_STREAM_ALERT_WAITPERIOD: a misconfigured tool posting every second tells its owner once a minute. */
const NOTICE_WAIT_MS = 60_000;

/** Zulip's send_rate_limited_pm_notification_to_bot_owner: a direct message from Notification Bot. */
export async function notifyBotOwner(app: App, bot: UserRow, content: string): Promise<void> {
  if (!bot.is_bot || bot.bot_owner_id === null || app.realm?.deactivated) return;
  const seen = lastNotice.get(app) ?? new Map<number, number>();
  lastNotice.set(app, seen);
  const now = app.clock.now();
  const last = seen.get(bot.id);
  if (last !== undefined && now - last <= NOTICE_WAIT_MS) return;
  const owner = await findUserById(app.db, bot.bot_owner_id);
  if (!owner?.is_active) return;
  seen.set(bot.id, now);
  await sendNotificationDm(app, [owner.id], content);
}
