import { realmOf, type App } from "../app";
import { isAdmin, isGuest, isOwner, ROLE } from "../domain/roles";
import { avatarUrl, botDict } from "../domain/user-format";
import { fullNameProblem } from "../domain/validate";
import { adminRequired, badRequest, ownerRequired } from "../errors";
import { generateApiKey } from "../lib/random";
import { findBotService, insertBotService, updateBotServiceRow } from "../store/webhooks";
import {
  findActiveUserByFullName,
  findStreamForUser,
  findUserByEmail,
  findUserById,
  listActiveUserIds,
  listBotsOwnedBy,
  updateUser,
  type UserRow,
} from "../store/users";
import { BOT_TYPE, checkBotCreationPolicy } from "./bot-permissions";
import { setBotAvatar } from "./avatars";
import { deactivateUser } from "./deactivation";
import { canAdminUser } from "./user-access";
import { botAdministrators, createUser, streamNames } from "./users";
import { changeFullName, changeUserRole, isLastOwner } from "./user-updates";

const SUPPORTED_BOT_TYPES: number[] = [BOT_TYPE.generic, BOT_TYPE.incomingWebhook, BOT_TYPE.outgoingWebhook];
/** Zulip's Service interfaces: 1 generic, 2 Slack-compatible. */
const INTERFACE_TYPES = [1, 2];

/** The host part of bot emails: the server's external URL's host name. */
export function botDomain(app: App): string {
  try {
    return new URL(app.config.server.external_url).hostname || "parley.localhost";
  } catch {
    return "parley.localhost";
  }
}

/** A default channel named by the caller: "" clears it; a private channel needs a subscription. */
async function resolveDefaultStream(app: App, actor: UserRow, name: string | undefined): Promise<number | null | undefined> {
  if (name === undefined) return undefined;
  if (name === "") return null;
  const stream = await findStreamForUser(app.db, realmOf(app).id, name, actor.id);
  if (!stream || (stream.invite_only && !stream.subscribed && !isAdmin(actor.role))) throw badRequest(`Invalid channel name '${name}'`);
  return stream.id;
}

export interface NewBot {
  fullName: string;
  shortName: string;
  botType: number;
  defaultSendingStream?: string;
  defaultEventsRegisterStream?: string;
  defaultAllPublicStreams?: boolean;
  /** outgoing-webhook bots: where messages to the bot are POSTed, and in which format */
  payloadUrl?: string;
  interfaceType?: number;
}

/** An outgoing webhook's URL, as Zulip's check_url: http(s) with a host. */
function checkPayloadUrl(url: string | undefined): string {
  if (!url) throw badRequest("payload_url is not a URL");
  try {
    const u = new URL(url);
    if ((u.protocol === "http:" || u.protocol === "https:") && u.hostname) return url;
  } catch {
    // fall through
  }
  throw badRequest("payload_url is not a URL");
}

/** POST /bots: a generic, incoming-webhook or outgoing-webhook bot owned by the caller. */
export async function createBot(app: App, actor: UserRow, input: NewBot) {
  const realm = realmOf(app);
  const short = input.shortName.trim();
  if (!short) throw badRequest("Bad name or username");
  const email = `${short}-bot@${botDomain(app)}`;
  if (!/^[A-Za-z0-9._+-]+-bot@[^\s@]+$/.test(email)) throw badRequest("Bad name or username");
  const problem = fullNameProblem(input.fullName);
  if (problem) throw badRequest(problem);
  const fullName = input.fullName.trim();
  if (await findUserByEmail(app.db, realm.id, email)) throw badRequest("Username already in use");
  if (await findActiveUserByFullName(app.db, realm.id, fullName)) throw badRequest("Name is already in use!");
  checkBotCreationPolicy(app, actor, input.botType);
  if (!SUPPORTED_BOT_TYPES.includes(input.botType)) throw badRequest("Invalid bot type");
  const outgoing = input.botType === BOT_TYPE.outgoingWebhook;
  const service = outgoing ? { base_url: checkPayloadUrl(input.payloadUrl), interface: input.interfaceType ?? 1, token: generateApiKey() } : null;
  if (service && !INTERFACE_TYPES.includes(service.interface)) throw badRequest("Invalid interface type");
  const sending = await resolveDefaultStream(app, actor, input.defaultSendingStream);
  const register = await resolveDefaultStream(app, actor, input.defaultEventsRegisterStream);
  const created = await createUser(app, actor, {
    email,
    fullName,
    password: null,
    role: ROLE.member,
    isBot: true,
    botType: input.botType,
    botOwnerId: actor.id,
    defaultSendingStreamId: sending ?? null,
    defaultEventsRegisterStreamId: register ?? null,
    defaultAllPublicStreams: input.defaultAllPublicStreams ?? false,
  }, service ? (sql, userId) => insertBotService(sql, { bot_id: userId, ...service }).then(() => undefined) : undefined);
  const bot = (await findUserById(app.db, created.userId))!;
  if (service) publishBotUpdate(app, await botAdministrators(app, bot), { user_id: bot.id, services: [{ base_url: service.base_url, interface: service.interface, token: service.token }] });
  const names = await streamNames(app, [bot]);
  return {
    user_id: bot.id,
    api_key: bot.api_key,
    avatar_url: avatarUrl(bot, false),
    default_sending_stream: names(bot.default_sending_stream_id),
    default_events_register_stream: names(bot.default_events_register_stream_id),
    default_all_public_streams: Boolean(bot.default_all_public_streams),
  };
}

/** GET /bots: the caller's active bots, with their keys. */
export async function listOwnBots(app: App, actor: UserRow) {
  const bots = await listBotsOwnedBy(app.db, actor.id, true);
  const names = await streamNames(app, bots);
  return bots.map((b) => ({
    user_id: b.id,
    username: b.email,
    full_name: b.full_name,
    bot_type: b.bot_type,
    api_key: b.api_key,
    avatar_url: avatarUrl(b, false),
    default_sending_stream: names(b.default_sending_stream_id),
    default_events_register_stream: names(b.default_events_register_stream_id),
    default_all_public_streams: Boolean(b.default_all_public_streams),
  }));
}

/** Zulip's access_bot_by_id: "No such bot", "Insufficient permission". */
export async function accessBotById(app: App, actor: UserRow, botId: number): Promise<UserRow> {
  const bot = await findUserById(app.db, botId);
  if (!bot || bot.realm_id !== actor.realm_id || !bot.is_bot) throw badRequest("No such bot");
  if (!canAdminUser(actor, bot)) throw badRequest("Insufficient permission");
  if (bot.can_create_users && !isOwner(actor.role)) throw ownerRequired();
  return bot;
}

export interface BotUpdate {
  fullName?: string;
  role?: number;
  botOwnerId?: number;
  defaultSendingStream?: string;
  defaultEventsRegisterStream?: string;
  defaultAllPublicStreams?: boolean;
  /** a new avatar: the files of a multipart request */
  avatarFiles?: File[];
  /** outgoing-webhook bots: a new endpoint or format */
  servicePayloadUrl?: string;
  serviceInterface?: number;
}

/** PATCH /bots/{bot_id}: by the owner or an administrator. */
export async function updateBot(app: App, actor: UserRow, botId: number, input: BotUpdate) {
  let bot = await accessBotById(app, actor, botId);
  // first: an image that does not decode is refused before anything else changes
  if (input.avatarFiles?.length) await setBotAvatar(app, bot, input.avatarFiles);
  if (input.servicePayloadUrl !== undefined || input.serviceInterface !== undefined) await updateBotService(app, bot, input);
  if (input.fullName !== undefined) await changeFullName(app, bot, input.fullName);
  if (input.role !== undefined && input.role !== bot.role) {
    if ((input.role === ROLE.owner || bot.role === ROLE.owner) && !isOwner(actor.role)) throw ownerRequired();
    if (!isAdmin(actor.role)) throw adminRequired();
    if (await isLastOwner(app, bot)) throw badRequest("The owner permission cannot be removed from the only organization owner.");
    await changeUserRole(app, bot, input.role);
  }
  if (input.botOwnerId !== undefined) {
    const owner = await findUserById(app.db, input.botOwnerId);
    if (!owner || owner.realm_id !== bot.realm_id) throw badRequest("Failed to change owner, no such user");
    if (!owner.is_active) throw badRequest("Failed to change owner, user is deactivated");
    if (owner.is_bot) throw badRequest("Failed to change owner, bots can't own other bots");
    bot = (await findUserById(app.db, bot.id))!;
    if (bot.bot_owner_id !== owner.id) await changeBotOwner(app, bot, owner);
  }
  const changes: Partial<UserRow> = {};
  const sending = await resolveDefaultStream(app, actor, input.defaultSendingStream);
  const register = await resolveDefaultStream(app, actor, input.defaultEventsRegisterStream);
  if (sending !== undefined) changes.default_sending_stream_id = sending;
  if (register !== undefined) changes.default_events_register_stream_id = register;
  if (input.defaultAllPublicStreams !== undefined) changes.default_all_public_streams = input.defaultAllPublicStreams ? 1 : 0;
  if (Object.keys(changes).length) {
    await app.db.tx((sql) => updateUser(sql, bot.id, changes));
    const fresh = (await findUserById(app.db, bot.id))!;
    const names = await streamNames(app, [fresh]);
    const audience = await botAdministrators(app, fresh);
    if (sending !== undefined) publishBotUpdate(app, audience, { user_id: bot.id, default_sending_stream: names(fresh.default_sending_stream_id) });
    if (register !== undefined) publishBotUpdate(app, audience, { user_id: bot.id, default_events_register_stream: names(fresh.default_events_register_stream_id) });
    if (input.defaultAllPublicStreams !== undefined) publishBotUpdate(app, audience, { user_id: bot.id, default_all_public_streams: input.defaultAllPublicStreams });
  }
  bot = (await findUserById(app.db, bot.id))!;
  const names = await streamNames(app, [bot]);
  const owner = bot.bot_owner_id !== null ? await findUserById(app.db, bot.bot_owner_id) : undefined;
  return {
    full_name: bot.full_name,
    avatar_url: avatarUrl(bot, false),
    default_sending_stream: names(bot.default_sending_stream_id),
    default_events_register_stream: names(bot.default_events_register_stream_id),
    default_all_public_streams: Boolean(bot.default_all_public_streams),
    ...(owner ? { bot_owner: owner.email } : {}),
  };
}

/** Zulip's do_update_outgoing_webhook_service: the endpoint and format of an outgoing-webhook bot. */
async function updateBotService(app: App, bot: UserRow, input: BotUpdate) {
  const service = await findBotService(app.db, bot.id);
  if (!service) throw badRequest("This bot has no outgoing webhook service");
  const baseUrl = input.servicePayloadUrl !== undefined ? checkPayloadUrl(input.servicePayloadUrl) : service.base_url;
  const iface = input.serviceInterface ?? service.interface;
  if (!INTERFACE_TYPES.includes(iface)) throw badRequest("Invalid interface type");
  await app.db.tx((sql) => updateBotServiceRow(sql, bot.id, baseUrl, iface));
  publishBotUpdate(app, await botAdministrators(app, bot), { user_id: bot.id, services: [{ base_url: baseUrl, interface: iface, token: service.token }] });
}

const publishBotUpdate = (app: App, audience: number[], bot: Record<string, unknown>) => app.events.publish({ type: "realm_bot", op: "update", bot }, audience);

/**
 * Zulip's do_change_bot_owner: the old owner's list loses the bot (realm_bot delete), the new
 * owner's gains it (add), administrators get an update, and everyone learns the new bot_owner_id.
 */
async function changeBotOwner(app: App, bot: UserRow, owner: UserRow) {
  const previous = bot.bot_owner_id !== null ? await findUserById(app.db, bot.bot_owner_id) : undefined;
  await app.db.tx((sql) => updateUser(sql, bot.id, { bot_owner_id: owner.id }));
  const fresh = (await findUserById(app.db, bot.id))!;
  const update = new Set(await botAdministrators(app, fresh));
  if (previous && previous.is_active && !isAdmin(previous.role)) {
    app.events.publish({ type: "realm_bot", op: "delete", bot: { user_id: bot.id } }, [previous.id]);
    update.delete(previous.id);
  }
  if (!isAdmin(owner.role)) {
    app.events.publish({ type: "realm_bot", op: "add", bot: botDict(fresh, await streamNames(app, [fresh])) }, [owner.id]);
    update.delete(owner.id);
  }
  app.events.publish({ type: "realm_bot", op: "update", bot: { user_id: bot.id, owner_id: owner.id } }, [...update]);
  app.events.publish({ type: "realm_user", op: "update", person: { user_id: bot.id, bot_owner_id: owner.id } }, await listActiveUserIds(app.db, realmOf(app).id));
}

/** DELETE /bots/{bot_id}. */
export async function deactivateBot(app: App, actor: UserRow, botId: number): Promise<void> {
  const bot = await accessBotById(app, actor, botId);
  if (!bot.is_active) return;
  await deactivateUser(app, bot, {});
}

/** GET /bots/{bot_id}/api_key: the bot's key, for its owner or an administrator. */
export async function botApiKey(app: App, actor: UserRow, botId: number): Promise<string> {
  return (await accessBotById(app, actor, botId)).api_key;
}

/** POST /bots/{bot_id}/api_key/regenerate: a new key; the old one stops working at once. */
export async function regenerateBotApiKey(app: App, actor: UserRow, botId: number): Promise<string> {
  const bot = await accessBotById(app, actor, botId);
  const apiKey = generateApiKey();
  await app.db.tx((sql) => updateUser(sql, bot.id, { api_key: apiKey }));
  publishBotUpdate(app, await botAdministrators(app, bot), { user_id: bot.id, api_key: apiKey });
  return apiKey;
}
