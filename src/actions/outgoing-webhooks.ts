import { nowSecs, realmOf, type App } from "../app";
import { topicNarrowUrl } from "../domain/markdown/urls";
import { PARLEY_VERSION } from "../domain/version";
import { ZulipError } from "../errors";
import { OutboundError, outboundRequest, type OutboundResponse } from "../lib/outbound-http";
import { findMessage, type MessageRow } from "../store/messages";
import { findUserById, type UserRow } from "../store/users";
import {
  claimOutgoingJob,
  deleteOutgoingJob,
  findBotService,
  listDueOutgoingJobs,
  noteOutgoingJobError,
  type OutgoingJobRow,
} from "../store/webhooks";
import { buildRequest, interpretSuccess, ownerNotice } from "../webhooks/outgoing/payload";
import { loadDirectory, type Directory } from "./messages/directory";
import { messageDict, NOTHING_ATTACHED } from "./messages/format";
import { checkMessageRecipient, deliverMessage, type Addressee } from "./messages/send";

/** Zulip's MAX_REQUEST_RETRIES: a POST that times out or cannot connect is tried this many more times. */
export const MAX_RETRIES = 3;
/** Seconds to wait before retry n (after the first attempt, the second, the third). */
const BACKOFF_SECS = [2, 10, 30];
/** Rows sent per run of the loop's job (in parallel: one slow server does not hold up the others). */
const BATCH = 10;
/** The most of an answer read (a reply is a message; anything longer is refused by the send anyway). */
const MAX_ANSWER_BYTES = 256 * 1024;
const CLIENT = "OutgoingWebhookResponse";

/** The timer loop's job: POSTs what is due, each row once per attempt, with bounded retries. */
export async function deliverOutgoingWebhooks(app: App, signal?: AbortSignal): Promise<number> {
  if (!app.realm) return 0;
  const now = nowSecs(app);
  const due = await listDueOutgoingJobs(app.db, now, BATCH);
  await Promise.all(due.map((job) => attempt(app, job, now, signal)));
  return due.length;
}

async function attempt(app: App, job: OutgoingJobRow, now: number, signal?: AbortSignal): Promise<void> {
  const timeoutSecs = app.config.webhooks.outgoing_timeout_seconds;
  // pushed past this attempt's end first: a crash mid-POST retries later, and no other run takes it meanwhile
  const retryAt = now + timeoutSecs + (BACKOFF_SECS[job.attempts] ?? BACKOFF_SECS.at(-1)!);
  if (!(await app.db.tx((sql) => claimOutgoingJob(sql, job, retryAt)))) return;
  const done = () => app.db.tx((sql) => deleteOutgoingJob(sql, job.id));
  const [bot, service, message] = await Promise.all([findUserById(app.db, job.bot_id), findBotService(app.db, job.bot_id), findMessage(app.db, job.message_id)]);
  if (!bot?.is_active || !service || !message) return void (await done());
  const d = await loadDirectory(app);
  const ctx: Ctx = { app, d, bot, message };
  const dict = { ...messageDict(app, d, message, NOTHING_ATTACHED, bot.id, { applyMarkdown: false, clientGravatar: false, allowEmptyTopicName: true }), rendered_content: message.rendered_content };
  const realm = realmOf(app);
  const request = buildRequest(service.interface, {
    bot: { email: bot.email, fullName: bot.full_name },
    token: service.token,
    trigger: job.trigger,
    serviceId: bot.id,
    message: dict,
    realm: { id: realm.id, host: hostOf(app) },
  });
  if (request.kind === "refused") {
    await failWithMessage(ctx, request.failure);
    return void (await done());
  }
  let response: OutboundResponse;
  // refused at connect unless allowed: a private address, or a name leading to one; a redirect's 3xx is the answer
  try {
    response = await outboundRequest({
      url: service.base_url,
      method: "POST",
      body: request.body,
      headers: { "content-type": request.kind === "json" ? "application/json" : "application/x-www-form-urlencoded", "user-agent": `ParleyOutgoingWebhook/${PARLEY_VERSION}` },
      timeoutMs: timeoutSecs * 1000,
      signal,
      maxBytes: MAX_ANSWER_BYTES,
      allowPrivate: app.config.webhooks.allow_private_outgoing,
    });
  } catch (e) {
    if (!(e instanceof OutboundError)) throw e;
    if (e.kind === "aborted") return; // shutting down: the row is retried after restart
    if (e.kind === "refused") {
      // Zulip's outgoing proxy answers 407 for a private or disallowed network
      await failWithMessage(ctx, "Third party responded with 407");
      await notifyOwner(ctx, { status: 407 });
      return void (await done());
    }
    const failure = e.kind === "timeout" ? `Request timed out after ${timeoutSecs} seconds.` : "A connection error occurred. Is my bot server down?";
    if (job.attempts + 1 > MAX_RETRIES) {
      await failWithMessage(ctx, "Bot is unavailable");
      await notifyOwner(ctx, { failure });
      return void (await done());
    }
    await app.db.tx((sql) => noteOutgoingJobError(sql, job.id, failure));
    return;
  }
  const text = new TextDecoder().decode(response.body);
  if (response.status >= 200 && response.status < 300) {
    const reply = interpretSuccess(service.interface, text);
    try {
      if (reply.kind === "invalid") throw new ZulipError("BAD_REQUEST", reply.error);
      if (reply.kind === "reply") await respond(ctx, reply.content);
    } catch (e) {
      if (!(e instanceof ZulipError)) throw e;
      await failWithMessage(ctx, e.message);
      await notifyOwner(ctx, { failure: `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> ${e.message}`, responseText: text });
    }
  } else {
    await failWithMessage(ctx, `Third party responded with ${response.status}`);
    await notifyOwner(ctx, { status: response.status, responseText: text });
  }
  await done();
}

interface Ctx {
  app: App;
  d: Directory;
  bot: UserRow;
  message: MessageRow;
}

const hostOf = (app: App) => {
  try {
    return new URL(app.config.server.external_url).host || "parley.localhost";
  } catch {
    return "parley.localhost";
  }
};

/** Zulip's send_response_message: the bot answers where it was asked (the channel's topic, or the whole direct-message group). */
async function respond(ctx: Ctx, content: string): Promise<void> {
  const { app, d, bot, message } = ctx;
  let addressee: Addressee;
  if (message.stream_id !== null) {
    const stream = d.streams.get(message.stream_id);
    if (!stream) return;
    // Zulip skips the channel access check for this answer: the bot was asked there
    addressee = { kind: "stream", stream, topic: message.topic, access: { user: bot, channel: stream, subscribed: false, inGroup: () => true } };
  } else {
    addressee = await checkMessageRecipient(app, bot, { type: "direct", to: (message.dm_key ?? String(message.sender_id)).split(",").map(Number) }, d);
  }
  await deliverMessage(app, d, bot, addressee, content, { clientName: CLIENT, readBySender: true });
}

/** Zulip's fail_with_message: "Failure! …" in the conversation (nowhere, if it is gone). */
async function failWithMessage(ctx: Ctx, failure: string): Promise<void> {
  try {
    await respond(ctx, `Failure! ${failure}`);
  } catch (e) {
    if (!(e instanceof ZulipError)) throw e;
    ctx.app.log.warn("outgoing webhook: the failure notice could not be posted", { bot: ctx.bot.id, error: e.message });
  }
}

/** Zulip's notify_bot_owner: the bot tells its owner, in a direct message, what went wrong. */
async function notifyOwner(ctx: Ctx, o: { failure?: string; status?: number; responseText?: string }): Promise<void> {
  const { app, d, bot, message } = ctx;
  if (bot.bot_owner_id === null) return;
  const owner = d.users.get(bot.bot_owner_id);
  if (!owner?.is_active) return;
  const content = ownerNotice({ messageUrl: messageUrl(app, d, message), botName: bot.full_name, ...o });
  const addressee = await checkMessageRecipient(app, bot, { type: "direct", to: [owner.id] }, d);
  await deliverMessage(app, d, bot, addressee, content, { clientName: CLIENT, readBySender: true });
}

/** Zulip's message_link_url: the message in its channel's topic, or in its direct-message conversation. */
function messageUrl(app: App, d: Directory, m: MessageRow): string {
  const base = app.config.server.external_url.replace(/\/$/, "");
  if (m.stream_id !== null) {
    const stream = d.streams.get(m.stream_id);
    return `${base}${topicNarrowUrl(m.stream_id, stream?.name ?? "", m.topic)}/near/${m.id}`;
  }
  const ids = (m.dm_key ?? String(m.sender_id)).split(",");
  return `${base}/#narrow/dm/${ids.join(",")}-${ids.length > 2 ? "group" : "dm"}/near/${m.id}`;
}
