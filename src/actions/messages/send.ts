import { nowSecs, realmOf, type App } from "../../app";
import { channelKind, postRefusal, canCreateTopics, type ChannelAccess } from "../../domain/channel-permissions";
import { FLAG, flagList } from "../../domain/flags";
import type { RenderResult } from "../../domain/markdown";
import { widgetOf, WIDGET_MSG_TYPE } from "../../domain/widgets";
import { normalizeContent, normalizeTopic } from "../../domain/topic";
import { autoPrefs, policyAfterSend, VISIBILITY } from "../../domain/user-topics";
import { badRequest, streamDoesNotExist, streamIdDoesNotExist, ZulipError } from "../../errors";
import type { Sql } from "../../store/db";
import {
  conversationExists,
  findDirectMessageGroup,
  insertDirectMessageGroup,
  listTopicParticipants,
  senderTopicState,
  setFirstMessageId,
  topicHasMessageBefore,
  type MessageRow,
} from "../../store/messages";
import type { StreamRow } from "../../store/streams";
import { isSubscribed } from "../../store/subscriptions";
import { insertSubmessage, type SubmessageRow } from "../../store/submessages";
import { findUserTopic, setUserTopic, userTopicPolicy } from "../../store/user-topics";
import type { UserRow } from "../../store/users";
import { applyAttachmentEffects, claimAttachments, type AttachmentEffects } from "../attachments";
import { hasRealmPermission } from "../channel-access";
import { canAccessAllUsers, accessibleUserIds, guestsSeeEveryone, usersBlindTo, watchUserAccess } from "../user-access";
import { isGuest } from "../../domain/roles";
import { loadDirectory, type Directory, type DirectoryUser } from "./directory";
import { writeMessage } from "./writer";
import { loadTopicLinkifiers, messageDict, NOTHING_ATTACHED, withUnknownSender, type Attached } from "./format";
import { rerenderMessages } from "./rerender";
import { emptyTopicName, hasAlertWord, render } from "./render";
import { alertWordsOf } from "../alert-words";
import { publishUserTopic } from "../user-topics";
import { enqueueOutgoingWebhooks } from "../outgoing-webhook-triggers";

/** More subscribers (or topic participants) than this make a wildcard mention need permission. */
export const WILDCARD_MENTION_THRESHOLD = 15;

export interface MessageInput {
  /** direct | private | channel | stream */
  type: string;
  /** raw form value (a name, an id, JSON) or an already decoded value (id, name, list of ids or emails) */
  to: unknown;
  topic?: string | null;
  content: string;
  readBySender?: boolean | null;
  queueId?: string | null;
  localId?: string | null;
}

export interface SendOptions {
  /** the sending client's name (the message's `client`) */
  clientName: string;
  /** runs inside the send's write transaction after the insert (scheduled delivery marks its row there); throwing rolls the send back */
  inTransaction?: (sql: Sql, messageId: number) => Promise<void>;
}

export type Addressee =
  | { kind: "stream"; stream: StreamRow; topic: string; access: ChannelAccess }
  | { kind: "direct"; users: DirectoryUser[]; dmKey: string };

/** Zulip's extract_stream_indicator: a name, an id, or either JSON-encoded (a one-element list too). */
function streamIndicator(to: unknown): string | number {
  let data: unknown = to;
  if (typeof to === "string") {
    try {
      data = JSON.parse(to);
    } catch {
      return to;
    }
  }
  if (Array.isArray(data)) {
    if (data.length !== 1) throw badRequest("Expected exactly one channel");
    data = data[0];
  }
  if (typeof data === "string") return data;
  if (typeof data === "number" && Number.isInteger(data)) return data;
  throw badRequest("Invalid data type for channel");
}

/** Zulip's extract_private_recipients: a JSON list of ids or of emails, or comma-separated emails. */
function privateRecipients(to: unknown): number[] | string[] {
  let data: unknown = to;
  if (typeof to === "string") {
    try {
      data = JSON.parse(to);
    } catch {
      data = to;
    }
  }
  if (typeof data === "string") data = data.split(",");
  if (typeof data === "number") data = [data];
  if (!Array.isArray(data)) throw badRequest("Invalid data type for recipients");
  if (!data.length) return [];
  const mixed = () => badRequest("Recipient lists may contain emails or user IDs, but not both.");
  if (typeof data[0] === "string") {
    if (data.some((x) => typeof x !== "string")) throw mixed();
    return [...new Set((data as string[]).map((e) => e.trim()).filter(Boolean))];
  }
  if (typeof data[0] !== "number") throw badRequest("Invalid data type for recipients");
  if (data.some((x) => typeof x !== "number" || !Number.isInteger(x))) throw mixed();
  return [...new Set(data as number[])];
}

export function messageKind(type: string): "stream" | "direct" {
  if (type === "stream" || type === "channel") return "stream";
  if (type === "direct" || type === "private") return "direct";
  throw badRequest("Invalid type");
}

/** The channel's effective topics_policy (inherit → the organization's; mandatory_topics forbids the empty topic). */
export function topicsPolicy(app: App, stream: Pick<StreamRow, "topics_policy">): string {
  const realm = realmOf(app).settings;
  let policy = stream.topics_policy === "inherit" ? String(realm.topics_policy ?? "allow_empty_topic") : stream.topics_policy;
  if (policy === "inherit") policy = "allow_empty_topic";
  if (realm.mandatory_topics && policy === "allow_empty_topic") policy = "disable_empty_topic";
  return policy;
}

/** Checks a channel topic against the channel's rules; returns it normalized. */
export function checkTopic(app: App, stream: Pick<StreamRow, "topics_policy">, raw: string | null | undefined): string {
  if (raw === undefined || raw === null) throw badRequest("Missing topic");
  const limits = app.config.limits;
  const name = emptyTopicName(app);
  const n = normalizeTopic(raw, limits.max_topic_length, name);
  if ("error" in n) throw badRequest(n.error);
  const policy = topicsPolicy(app, stream);
  if (policy === "disable_empty_topic" && n.topic === "") throw badRequest(`Sending messages to the ${name} topic is not allowed in this channel.`);
  if (policy === "empty_topic_only" && n.topic !== "") throw badRequest(`Only the ${name} topic is allowed in this channel.`);
  return n.topic;
}

function channelAccessOf(app: App, user: { id: number; role: number }, stream: StreamRow, subscribed: boolean): ChannelAccess {
  return { user, channel: stream, subscribed, inGroup: (g) => app.groups.isMember(g, user.id) };
}

/**
 * The recipient part of sending, shared with scheduling: resolves `to` (and checks `topic`) into
 * a channel or a set of users, with every access and permission rule applied. Throws Zulip's errors.
 */
export async function checkMessageRecipient(
  app: App,
  sender: UserRow,
  input: Pick<MessageInput, "type" | "to" | "topic">,
  dir?: Directory,
): Promise<Addressee> {
  const d = dir ?? (await loadDirectory(app));
  if (messageKind(input.type) === "stream") {
    const indicator = streamIndicator(input.to);
    const stream = typeof indicator === "number" ? d.streams.get(indicator) : d.streamByName(indicator);
    if (!stream || stream.realm_id !== realmOf(app).id) {
      throw typeof indicator === "number" ? streamIdDoesNotExist(indicator) : streamDoesNotExist(indicator.trim());
    }
    const subscribed = (await d.subscriberIds(app.db, stream.id)).includes(sender.id);
    const access = channelAccessOf(app, sender, stream, subscribed);
    let owner: ChannelAccess | undefined;
    if (sender.is_bot && sender.bot_owner_id) {
      const o = d.users.get(sender.bot_owner_id);
      if (o && o.is_active) owner = channelAccessOf(app, o, stream, await isSubscribed(app.db, o.id, stream.id));
    }
    const refusal = postRefusal(access, owner);
    if (refusal) throw badRequest(refusal);
    const topic = checkTopic(app, stream, input.topic);
    return { kind: "stream", stream, topic, access };
  }
  const given = privateRecipients(input.to);
  if (!given.length) throw badRequest("Message must have recipients");
  const users: DirectoryUser[] = [];
  for (const g of given) {
    const u = typeof g === "number" ? d.users.get(g) : d.userByEmail(g);
    if (!u || u.realm_id !== sender.realm_id) throw badRequest(typeof g === "number" ? `Invalid user ID ${g}` : `Invalid email '${g}'`);
    if (!u.is_active) throw badRequest(`'${u.email}' is no longer using Zulip.`);
    if (!users.some((x) => x.id === u.id)) users.push(u);
  }
  if (!canAccessAllUsers(app, sender)) {
    const visible = await accessibleUserIds(app, sender);
    if (visible && users.some((u) => !visible.has(u.id))) throw badRequest("You do not have permission to access some of the recipients.");
  }
  const ids = [...new Set([sender.id, ...users.map((u) => u.id)])].sort((a, b) => a - b);
  const dmKey = ids.join(",");
  await checkDirectMessagePermission(app, d, sender, users, dmKey);
  return { kind: "direct", users: ids.map((id) => d.users.get(id)!), dmKey };
}

/** Zulip's check_can_send_direct_message: direct_message_permission_group and direct_message_initiator_group. */
async function checkDirectMessagePermission(app: App, d: Directory, sender: UserRow, recipients: DirectoryUser[], dmKey: string) {
  if (sender.is_bot) return;
  if (recipients.every((u) => u.is_bot || u.id === sender.id)) return;
  const settings = realmOf(app).settings;
  const everyone = [sender.id, ...recipients.map((u) => u.id)];
  const permission = settings.direct_message_permission_group;
  if (!everyone.some((id) => app.groups.settingIncludes(permission, id))) {
    const nobody = permission === app.systemGroups.get("role:nobody");
    throw badRequest(nobody ? "Direct messages are disabled in this organization." : "This conversation does not include any users who can authorize it.");
  }
  if (app.groups.settingIncludes(settings.direct_message_initiator_group, sender.id)) return;
  if (!(await conversationExists(app.db, dmKey))) throw badRequest("You do not have permission to initiate direct message conversations.");
  void d;
}

/** Zulip's Client.default_read_by_sender: messages from full clients start read for their sender. */
export function defaultReadBySender(clientName: string): boolean {
  const c = clientName.toLowerCase();
  return (
    ["zulipandroid", "zulipios", "zulipdesktop", "zulipmobile", "zulipelectron", "zulipterminal", "zulipflutter", "snipe", "website", "ios", "android", "test suite"].includes(c) ||
    c.includes("desktop app")
  );
}

export interface SendResult {
  id: number;
  automatic_new_visibility_policy?: number;
}

interface Prepared {
  addressee: Addressee;
  content: string;
  rendered: RenderResult;
  recipients: { userId: number; flags: number }[];
  senderPolicy: number | null;
  /** the sender's policy had another send started the topic first (see deliverMessage's write) */
  senderPolicyJoined: number | null;
  mentionFollows: number[];
  initiated: boolean;
}

/** Renders and computes every recipient's flags; throws the mention-permission errors. */
async function prepare(app: App, d: Directory, sender: UserRow, addressee: Addressee, rawContent: string, readBySender: boolean, internal: boolean, readBy: number[] = []): Promise<Prepared> {
  const n = normalizeContent(rawContent, app.config.limits.max_message_length);
  if ("error" in n) throw badRequest(n.error);
  const rendered = await render(app, d, sender, n.content);
  const mayMentionMany = () => hasRealmPermission(app, sender, "can_mention_many_users_group");
  let userIds: number[];
  let topicParticipants: Set<number> | null = null;
  let state = { streamMuted: false, visibilityPolicy: 0, topicExists: true, mutedBy: [] as number[] };
  if (addressee.kind === "stream") {
    const subs = await d.subscriberIds(app.db, addressee.stream.id);
    state = await senderTopicState(app.db, sender.id, addressee.stream.id, addressee.topic);
    if (!internal && !state.topicExists && !canCreateTopics(addressee.access)) throw badRequest("You do not have permission to create new topics in this channel.");
    if (!internal && rendered.wildcard.stream && subs.length > WILDCARD_MENTION_THRESHOLD && !mayMentionMany()) {
      throw new ZulipError("STREAM_WILDCARD_MENTION_NOT_ALLOWED", "You do not have permission to use channel wildcard mentions in this channel.");
    }
    if (rendered.wildcard.topic) {
      topicParticipants = new Set(await listTopicParticipants(app.db, addressee.stream.id, addressee.topic));
      topicParticipants.add(sender.id);
      if (!internal && topicParticipants.size > WILDCARD_MENTION_THRESHOLD && !mayMentionMany()) {
        throw new ZulipError("TOPIC_WILDCARD_MENTION_NOT_ALLOWED", "You do not have permission to use topic wildcard mentions in this topic.");
      }
    }
    userIds = subs.includes(sender.id) ? subs : [...subs, sender.id];
  } else {
    userIds = addressee.users.map((u) => u.id);
  }
  if (!internal) checkGroupMentions(app, d, sender, rendered);
  const alertWords = await alertWordsOf(app);
  const flagsOf = contentFlags(app, rendered, n.content, sender.id, topicParticipants, alertWords);
  const mutedBy = new Set(state.mutedBy);
  const recipients = userIds.map((userId) => {
    let flags = flagsOf(userId);
    if (userId === sender.id ? readBySender : mutedBy.has(userId) || readBy.includes(userId)) flags |= FLAG.read;
    return { userId, flags };
  });
  let senderPolicy: number | null = null;
  let senderPolicyJoined: number | null = null;
  const mentionFollows: number[] = [];
  if (addressee.kind === "stream") {
    const prefs = autoPrefs(d.users.get(sender.id)?.prefs ?? {});
    senderPolicy = policyAfterSend(prefs, state.visibilityPolicy, state.streamMuted, !state.topicExists);
    senderPolicyJoined = state.topicExists ? senderPolicy : policyAfterSend(prefs, state.visibilityPolicy, state.streamMuted, false);
    for (const id of rendered.mentionedUserIds) {
      const u = d.users.get(id);
      if (id === sender.id || !u || !userIds.includes(id) || !autoPrefs(u.prefs).automatically_follow_topics_where_mentioned) continue;
      // Already following: nothing to do, and no query inside the write (the write re-reads the others).
      if ((await userTopicPolicy(app.db, id, addressee.stream.id, addressee.topic)) === VISIBILITY.followed) continue;
      mentionFollows.push(id);
    }
  }
  return { addressee, content: n.content, rendered, recipients, senderPolicy, senderPolicyJoined, mentionFollows, initiated: !state.topicExists };
}

/** The content rules of sending (length, topic creation, mention permissions) without sending: for scheduling. */
export async function checkMessageContent(app: App, d: Directory, sender: UserRow, addressee: Addressee, content: string): Promise<{ content: string; rendered: RenderResult }> {
  const p = await prepare(app, d, sender, addressee, content, false, false);
  return { content: p.content, rendered: p.rendered };
}

/**
 * The content-derived flags of each recipient: mentioned (directly or through a group), the
 * wildcard flags (topic wildcards only for topic participants when known), has_alert_word.
 */
export function contentFlags(
  app: App,
  rendered: RenderResult,
  content: string,
  senderId: number,
  topicParticipants: Set<number> | null,
  alertWords: Map<number, string[]>,
): (userId: number) => number {
  const mentioned = new Set(rendered.mentionedUserIds);
  for (const g of rendered.mentionedGroupIds) for (const u of app.groups.allMembers(g)) mentioned.add(u);
  const lower = content.toLowerCase();
  return (userId) => {
    let flags = 0;
    if (mentioned.has(userId)) flags |= FLAG.mentioned;
    if (rendered.wildcard.stream) flags |= FLAG.stream_wildcard_mentioned;
    if (rendered.wildcard.topic && (topicParticipants === null || topicParticipants.has(userId))) flags |= FLAG.topic_wildcard_mentioned;
    if (userId !== senderId) {
      const words = alertWords.get(userId);
      if (words && hasAlertWord(lower, words)) flags |= FLAG.has_alert_word;
    }
    return flags;
  };
}

/** Zulip's check_user_group_mention_allowed: each mentioned group's can_mention_group. */
export function checkGroupMentions(app: App, d: Directory, sender: UserRow, rendered: RenderResult) {
  for (const gid of rendered.mentionedGroupIds) {
    const g = [...d.groupsByName.values()].find((x) => x.id === gid);
    const setting = g?.canMention;
    if (setting === undefined || setting === null) continue;
    if (!app.groups.settingIncludes(setting, sender.id)) throw badRequest(`You are not allowed to mention user group '${g!.name}'.`);
  }
}

/**
 * Sends a message (POST /messages, scheduled delivery, notifications): checks the recipient and
 * the content, writes the message and every recipient's row in one transaction (batched with
 * concurrent sends), then sends each recipient their message event.
 */
export async function sendMessage(app: App, sender: UserRow, input: MessageInput, opts: SendOptions): Promise<SendResult> {
  if ((input.queueId == null) !== (input.localId == null)) {
    throw badRequest(input.queueId == null ? "Missing 'queue_id' argument" : "Missing 'local_id' argument");
  }
  const d = await loadDirectory(app);
  const addressee = await checkMessageRecipient(app, sender, input, d);
  return deliverMessage(app, d, sender, addressee, input.content, {
    clientName: opts.clientName,
    readBySender: input.readBySender ?? defaultReadBySender(opts.clientName),
    queueId: input.queueId ?? null,
    localId: input.localId ?? null,
    inTransaction: opts.inTransaction,
  });
}

export interface DeliverOptions {
  clientName: string;
  readBySender: boolean;
  queueId?: string | null;
  localId?: string | null;
  /** internal senders (Notification Bot) skip the topic-creation and mention permission checks */
  internal?: boolean;
  /** recipients for whom the message is born read (Zulip's mark_as_read: the user whose action it reports) */
  readBy?: number[];
  inTransaction?: SendOptions["inTransaction"];
}

/**
 * Writes and announces a message to an already checked addressee: renders, computes each
 * recipient's flags, inserts the message and all user_messages rows in one (batched) transaction,
 * then publishes the message and user_topic events.
 */
export async function deliverMessage(app: App, d: Directory, sender: UserRow, addressee: Addressee, content: string, opts: DeliverOptions): Promise<SendResult> {
  const p = await prepare(app, d, sender, addressee, content, opts.readBySender, opts.internal === true, opts.readBy);
  await loadTopicLinkifiers(app);
  const realm = realmOf(app);
  const now = nowSecs(app);
  const row: Omit<MessageRow, "id"> = {
    realm_id: realm.id,
    sender_id: sender.id,
    recipient_id: knownRecipientId(sender, addressee),
    stream_id: addressee.kind === "stream" ? addressee.stream.id : null,
    dm_key: addressee.kind === "direct" ? addressee.dmKey : null,
    topic: addressee.kind === "stream" ? addressee.topic : "",
    content: p.content,
    rendered_content: p.rendered.html,
    date_sent: now,
    client: opts.clientName,
    last_edit_time: null,
    last_moved_time: null,
    edit_history: null,
    has_attachment: p.rendered.hasAttachment ? 1 : 0,
    has_image: p.rendered.hasImage ? 1 : 0,
    has_link: p.rendered.hasLink ? 1 : 0,
    is_me_message: p.rendered.isMeMessage ? 1 : 0,
  };
  const topicChanges: { userId: number; policy: number }[] = [];
  let senderPolicy = p.senderPolicy;
  const stream = addressee.kind === "stream" ? addressee.stream : null;
  // `/poll` and `/todo` messages are widgets: their first submessage is written with them (Zulip's do_widget_post_save_actions)
  const widget = widgetOf(p.content);
  let widgetRow: SubmessageRow | null = null;
  const needsAfter = stream !== null || widget !== null || p.rendered.uploadPaths.length > 0 || opts.inTransaction !== undefined;
  // A first direct message from a person can show a guest someone new (limited user access): realm_user
  // add first. (Notices from Parley's system bots are left out, like Zulip's cross-realm bots.)
  const access = addressee.kind === "direct" && !sender.is_bot && addressee.users.some((u) => isGuest(u.role)) ? await watchUserAccess(app, { userIds: [sender.id, ...addressee.users.map((u) => u.id)] }) : null;
  const { id, extra } = await writeMessage(app, {
    row,
    recipients: p.recipients,
    before: row.recipient_id === 0 ? async (sql) => void (row.recipient_id = await groupRecipientId(sql, (addressee as { dmKey: string }).dmKey)) : undefined,
    after: !needsAfter
      ? undefined
      : async (sql, id) => {
          if (stream) {
            if (stream.first_message_id === null) await setFirstMessageId(sql, stream.id, id);
            // "On initiation" means the topic's first message: sends that found the topic new before
            // their write (concurrent first sends, committed together by the writer) check again here,
            // else every sender of the first wave follows the topic (and is notified of every message).
            senderPolicy = p.initiated && (await topicHasMessageBefore(sql, stream.id, row.topic, id)) ? p.senderPolicyJoined : p.senderPolicy;
            const changes = senderPolicy === null ? [] : [{ userId: sender.id, policy: senderPolicy }];
            for (const userId of p.mentionFollows) {
              const current = await findUserTopic(sql, userId, stream.id, row.topic);
              if ((current?.visibility_policy ?? 0) !== VISIBILITY.followed) changes.push({ userId, policy: VISIBILITY.followed });
            }
            for (const c of changes) {
              await setUserTopic(sql, { user_id: c.userId, stream_id: stream.id, topic: row.topic, visibility_policy: c.policy, last_updated: Math.floor(now) });
            }
            topicChanges.splice(0, topicChanges.length, ...changes);
          }
          if (widget) widgetRow = await insertSubmessage(sql, { message_id: id, sender_id: sender.id, msg_type: WIDGET_MSG_TYPE, content: JSON.stringify(widget) });
          let effects: AttachmentEffects | null = null;
          if (p.rendered.uploadPaths.length) {
            const kind = stream ? channelKind(stream) : null;
            effects = (
              await claimAttachments(sql, app, {
                messageId: id,
                senderId: sender.id,
                uploadPaths: p.rendered.uploadPaths,
                isRealmPublic: kind === "public" || kind === "web_public",
                isWebPublic: kind === "web_public",
              })
            ).effects;
          }
          if (opts.inTransaction) await opts.inTransaction(sql, id);
          return effects;
        },
  });
  const effects = extra ?? null;
  if (effects) await applyAttachmentEffects(app, effects);
  await access?.publish();
  // a direct message makes its participants visible to each other; a channel's sender may stay hidden
  const blind = addressee.kind === "stream" && !guestsSeeEveryone(app) ? await usersBlindTo(app, sender.id, recipientUsers(d, p.recipients)) : undefined;
  const attached = widgetRow ? { reactions: [], submessages: [widgetRow] } : NOTHING_ATTACHED;
  publishMessage(app, d, { ...row, id } as MessageRow, attached, p.recipients, sender.id, opts.queueId ?? null, opts.localId ?? null, blind);
  // An image whose thumbnails were finished between rendering and linking it would keep its spinner.
  if (p.rendered.uploadPaths.length && p.rendered.html.includes("image-loading-placeholder")) await rerenderMessages(app, [id]);
  if (addressee.kind === "stream") {
    for (const c of topicChanges) {
      await publishUserTopic(app, c.userId, { stream_id: addressee.stream.id, topic_name: addressee.topic, last_updated: Math.floor(now), visibility_policy: c.policy });
    }
  }
  // outgoing-webhook bots mentioned or written to: durable rows the timer loop sends (actions/outgoing-webhooks.ts)
  await enqueueOutgoingWebhooks(app, sender, addressee, p.rendered.mentionedUserIds, id);
  const out: SendResult = { id };
  if (senderPolicy !== null && !opts.internal) out.automatic_new_visibility_policy = senderPolicy;
  return out;
}

/** The message's recipient row when no SQL is needed: the channel's, the other user's (1:1), one's own (self-DM); 0 for groups. */
function knownRecipientId(sender: UserRow, a: Addressee): number {
  if (a.kind === "stream") return a.stream.recipient_id ?? 0;
  const others = a.users.filter((u) => u.id !== sender.id);
  if (others.length === 0) return sender.recipient_id ?? 0;
  if (others.length === 1) return others[0]!.recipient_id ?? 0;
  return 0;
}

/** The recipients' directory entries (id and role), for the access check. */
function* recipientUsers(d: Directory, recipients: { userId: number }[]) {
  for (const r of recipients) {
    const u = d.users.get(r.userId);
    if (u) yield u;
  }
}

/** A group conversation's recipient, created on its first message. */
async function groupRecipientId(sql: Sql, dmKey: string): Promise<number> {
  return (await findDirectMessageGroup(sql, dmKey))?.recipient_id ?? (await insertDirectMessageGroup(sql, dmKey));
}

/** Each recipient gets the message (with its widget, if any) and their flags; the sender's local-echo queue gets local_message_id. */
export function publishMessage(
  app: App,
  d: Directory,
  row: MessageRow,
  attached: Attached,
  recipients: { userId: number; flags: number }[],
  senderId: number,
  queueId: string | null,
  localId: string | null,
  blindToSender?: ReadonlySet<number>,
) {
  // built on first use: when no recipient has a queue, no message dict is made at all
  let shared: Record<string, unknown> | null = null;
  const sharedDict = () => (shared ??= messageDict(app, d, row, attached, -1, null));
  let incoming: Record<string, unknown> | null = null;
  let unknownSender: Record<string, unknown> | null = null;
  const forViewer = (userId: number) => {
    if (blindToSender?.has(userId)) return (unknownSender ??= withUnknownSender(app, sharedDict()));
    if (row.dm_key === null || userId === row.sender_id) return sharedDict();
    return (incoming ??= messageDict(app, d, row, attached, userId, null));
  };
  // the flags by user only when someone has a queue: most recipients of a busy channel are not connected
  let flags: Map<number, number> | null = null;
  const flagsOf = (userId: number) => (flags ??= new Map(recipients.map((r) => [r.userId, r.flags]))).get(userId);
  const others: number[] = [];
  for (const r of recipients) if (r.userId !== senderId || queueId === null) others.push(r.userId);
  app.events.publishEach(others, (userId) => ({ type: "message", message: forViewer(userId), flags: flagList(flagsOf(userId) ?? 0) }));
  if (queueId !== null && app.events.hasQueues(senderId)) {
    const senderFlags = flagsOf(senderId);
    if (senderFlags !== undefined) {
      app.events.publish({ type: "message", message: sharedDict(), flags: flagList(senderFlags) }, [senderId], {
        queueId,
        extra: { local_message_id: localId },
      });
    }
  }
  // Clients registered with all_public_streams see every public channel's messages (with no flags).
  if (row.stream_id === null || !app.events.hasAllPublicQueues) return;
  const stream = d.streams.get(row.stream_id);
  if (stream && !stream.invite_only) app.events.publishToAllPublicQueues({ type: "message", message: sharedDict(), flags: [] }, new Set(recipients.map((r) => r.userId)));
}
