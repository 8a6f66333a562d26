import { nowSecs, realmOf, type App } from "../../app";
import { canAccessHistory, canMoveMessagesOutOf, canMoveMessagesWithin, canResolveTopics, channelKind, hasContentAccess, postRefusal, type ChannelAccess, type ChannelUser } from "../../domain/channel-permissions";
import { FLAG, flagList } from "../../domain/flags";
import { isModerator } from "../../domain/roles";
import { normalizeContent, resolveChange, RESOLVED_TOPIC_PREFIX, unresolvedName, isResolved } from "../../domain/topic";
import { badRequest, ZulipError } from "../../errors";
import type { Sql } from "../../store/db";
import { findMessage, listMessagesByIds, listTopicMessageIds, listTopicParticipants, moveMessages, updateMessage as updateMessageRow, type MessageRow } from "../../store/messages";
import type { StreamRow } from "../../store/streams";
import { autoPrefs } from "../../domain/user-topics";
import { initiationPolicy, migrateTopicPolicies, publishPolicyChanges, type PolicyChange } from "./move-topic-policies";
import { insertUserMessages } from "../../store/messages";
import { deleteUserMessages, listHolders, mapFlags, mapHolders, setFlags } from "../../store/user-messages";
import { listSubscriptionRows } from "../../store/subscriptions";
import { hasSubmessages } from "../../store/submessages";
import { mayHaveSubmessages } from "../../domain/widgets";
import type { UserRow } from "../../store/users";
import { applyAttachmentEffects, syncMessageAttachments, type AttachmentEffects } from "../attachments";
import { alertWordsOf } from "../alert-words";
import { hasRealmPermission } from "../channel-access";
import { accessMessage } from "./access";
import { loadDirectory, type Directory } from "./directory";
import { messageAudience, removeMessage } from "./delete";
import { notificationBot, sendNotification, silentMention } from "./notification-bot";
import { render } from "./render";
import { linkifierList } from "../linkifiers";
import { topicLinks } from "../../domain/markdown";
import { topicNarrowUrl } from "../../domain/markdown/urls";
import { checkGroupMentions, checkTopic, contentFlags, WILDCARD_MENTION_THRESHOLD } from "./send";

export type PropagateMode = "change_one" | "change_later" | "change_all";

export interface EditInput {
  topic?: string;
  propagateMode: PropagateMode;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
  content?: string;
  streamId?: number;
  prevContentSha256?: string;
}

/** Zulip allows edits and moves this long after their limits (clients show a countdown). */
const EDIT_LIMIT_BUFFER_SECS = 20;

/** Past a time limit (seconds, null: none), with Zulip's grace buffer. */
const pastLimit = (now: number, sent: number, limit: number | null | undefined) => limit !== null && limit !== undefined && now - sent > limit + EDIT_LIMIT_BUFFER_SECS;

const noEditPermission = () => badRequest("You don't have permission to edit this message");

function channelAccess(app: App, me: Pick<UserRow, "id" | "role">, stream: StreamRow, subscribed: boolean): ChannelAccess {
  return { user: me, channel: stream, subscribed, inGroup: (g) => app.groups.isMember(g, me.id) };
}

/** Zulip's validate_user_can_edit_message (content edits). */
function checkContentEdit(app: App, me: UserRow, row: MessageRow) {
  const settings = realmOf(app).settings;
  if (!settings.allow_message_editing) throw badRequest("Your organization has turned off message editing");
  if (row.sender_id !== me.id) throw noEditPermission();
  if (pastLimit(nowSecs(app), row.date_sent, settings.message_content_edit_limit_seconds)) throw badRequest("The time limit for editing this message has passed");
}

interface Plan {
  newContent: { content: string; html: string; isMe: boolean; hasLink: boolean; hasImage: boolean; hasAttachment: boolean; uploadPaths: string[]; flagsOf: (u: number) => number } | null;
  newTopic: string | null;
  newStream: StreamRow | null;
  resolve: "resolved" | "unresolved" | null;
  moveIds: number[];
}

/**
 * PATCH /messages/{message_id}: content (the sender, within the edit limit), topic (with
 * propagate_mode, resolving included) and channel moves under the organization's and channels'
 * move permissions and time limits. Writes edit history, then sends update_message events (and
 * delete_message to users who lose access), and the Notification Bot notices.
 */
export async function updateMessage(app: App, me: UserRow, messageId: number, input: EditInput) {
  const d = await loadDirectory(app);
  const { row } = await accessMessage(app, d, me, messageId, app.db, { modifying: true });
  if (input.propagateMode !== "change_one" && input.topic === undefined && input.streamId === undefined) {
    throw badRequest("Invalid propagate_mode without topic edit");
  }
  if (input.content !== undefined && input.streamId !== undefined) throw badRequest("Cannot change message content while changing channel");
  if (input.content === undefined && input.topic === undefined && input.streamId === undefined) throw badRequest("Nothing to change");
  const oldStream = row.stream_id !== null ? d.streams.get(row.stream_id)! : null;
  if ((input.topic !== undefined || input.streamId !== undefined) && !oldStream) {
    throw badRequest(input.streamId !== undefined ? "Direct messages cannot be moved to channels." : "Direct messages cannot have topics.");
  }
  // Zulip keeps a widget's content as sent (its data lives in submessages); moving it is fine.
  if (input.content !== undefined && mayHaveSubmessages(row.content) && (await hasSubmessages(app.db, row.id))) throw badRequest("Widgets cannot be edited.");
  const settings = realmOf(app).settings;
  const now = nowSecs(app);
  const plan: Plan = { newContent: null, newTopic: null, newStream: null, resolve: null, moveIds: [] };

  if (input.content !== undefined) {
    checkContentEdit(app, me, row);
    if (input.prevContentSha256 !== undefined) {
      const sha = new Bun.CryptoHasher("sha256").update(row.content).digest("hex");
      if (sha !== input.prevContentSha256) throw new ZulipError("EXPECTATION_MISMATCH", "'prev_content_sha256' value does not match the expected value.");
    }
    // Zulip: editing the content away leaves "(deleted)".
    const n = normalizeContent(input.content.trimEnd() === "" ? "(deleted)" : input.content, app.config.limits.max_message_length);
    if ("error" in n) throw badRequest(n.error);
    const sender = d.users.get(row.sender_id)!;
    const rendered = await render(app, d, sender, n.content);
    let participants: Set<number> | null = null;
    if (oldStream) {
      const mayMentionMany = hasRealmPermission(app, me, "can_mention_many_users_group");
      if (rendered.wildcard.stream && (await d.subscriberIds(app.db, oldStream.id)).length > WILDCARD_MENTION_THRESHOLD && !mayMentionMany) {
        throw new ZulipError("STREAM_WILDCARD_MENTION_NOT_ALLOWED", "You do not have permission to use channel wildcard mentions in this channel.");
      }
      if (rendered.wildcard.topic) {
        participants = new Set(await listTopicParticipants(app.db, oldStream.id, row.topic));
        if (participants.size > WILDCARD_MENTION_THRESHOLD && !mayMentionMany) {
          throw new ZulipError("TOPIC_WILDCARD_MENTION_NOT_ALLOWED", "You do not have permission to use topic wildcard mentions in this topic.");
        }
      }
    }
    checkGroupMentions(app, d, me, rendered);
    plan.newContent = {
      content: n.content,
      html: rendered.html,
      isMe: rendered.isMeMessage,
      hasLink: rendered.hasLink,
      hasImage: rendered.hasImage,
      hasAttachment: rendered.hasAttachment,
      uploadPaths: rendered.uploadPaths,
      flagsOf: contentFlags(app, rendered, n.content, row.sender_id, participants, await alertWordsOf(app)),
    };
  }

  if (oldStream && (input.topic !== undefined || input.streamId !== undefined)) {
    const subscribed = (await d.subscriberIds(app.db, oldStream.id)).includes(me.id);
    const access = channelAccess(app, me, oldStream, subscribed);
    let target = oldStream;
    if (input.streamId !== undefined && input.streamId !== oldStream.id) {
      if (!canMoveMessagesOutOf(access, hasRealmPermission(app, me, "can_move_messages_between_channels_group"))) {
        throw badRequest("You don't have permission to move this message");
      }
      const ns = d.streams.get(input.streamId);
      if (!ns || ns.realm_id !== realmOf(app).id) throw badRequest("Invalid channel ID");
      const refusal = postRefusal(channelAccess(app, me, ns, (await d.subscriberIds(app.db, ns.id)).includes(me.id)));
      if (refusal) throw badRequest(refusal === "You do not have permission to post in this channel." ? refusal : "Invalid channel ID");
      if (!isModerator(me.role) && pastLimit(now, row.date_sent, settings.move_messages_between_streams_limit_seconds)) {
        throw badRequest("The time limit for editing this message's channel has passed");
      }
      plan.newStream = ns;
      target = ns;
    }
    if (input.topic !== undefined) {
      const topic = checkTopic(app, target, input.topic);
      if (topic !== row.topic) {
        if (topic === RESOLVED_TOPIC_PREFIX.trim() || (isResolved(topic) && unresolvedName(topic) === "")) throw badRequest("General chat cannot be marked as resolved");
        plan.resolve = plan.newStream ? null : resolveChange(row.topic, topic);
        if (plan.resolve) {
          if (!canResolveTopics(access, hasRealmPermission(app, me, "can_resolve_topics_group"))) throw badRequest("You don't have permission to resolve topics.");
        } else {
          if (!plan.newStream && !canMoveMessagesWithin(access, hasRealmPermission(app, me, "can_move_messages_between_topics_group"))) throw noEditPermission();
          if (!isModerator(me.role) && pastLimit(now, row.date_sent, settings.move_messages_within_stream_limit_seconds)) {
            throw badRequest("The time limit for editing this message's topic has passed.");
          }
        }
        plan.newTopic = topic;
      }
    }
    if (plan.newTopic !== null || plan.newStream !== null) {
      const ids =
        input.propagateMode === "change_one" ? [row.id] : await listTopicMessageIds(app.db, oldStream.id, row.topic, input.propagateMode === "change_later" ? row.id : 0);
      plan.moveIds = ids.includes(row.id) ? ids : [...ids, row.id].sort((a, b) => a - b);
      if (input.propagateMode === "change_all" && !isModerator(me.role) && !plan.resolve) {
        // Moving to another topic of another channel: the stricter of the two limits.
        const limits = [plan.newTopic !== null ? settings.move_messages_within_stream_limit_seconds : null, plan.newStream ? settings.move_messages_between_streams_limit_seconds : null];
        const set = limits.filter((l): l is number => l !== null && l !== undefined);
        const limit = set.length ? Math.min(...set) : null;
        if (limit !== null) {
          const rows = await listMessagesByIds(app.db, plan.moveIds);
          const allowed = rows.filter((m) => !pastLimit(now, m.date_sent, limit));
          if (allowed.length < rows.length) {
            throw new ZulipError(
              "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED",
              `You only have permission to move the ${allowed.length}/${rows.length} most recent messages in this topic.`,
              400,
              { first_message_id_allowed_to_move: allowed[0]?.id ?? null, total_messages_in_topic: rows.length, total_messages_allowed_to_move: allowed.length },
            );
          }
        }
      }
    }
  }
  // The same topic (or channel) as now is no change (Zulip drops it before its checks).
  if (!plan.newContent && plan.newTopic === null && plan.newStream === null) throw badRequest("Nothing to change");
  return applyEdit(app, d, me, row, input, plan, now);
}

async function applyEdit(app: App, d: Directory, me: UserRow, row: MessageRow, input: EditInput, plan: Plan, now: number) {
  const oldStream = row.stream_id !== null ? d.streams.get(row.stream_id)! : null;
  const moved = plan.newTopic !== null || plan.newStream !== null;
  const newStreamId = plan.newStream?.id ?? row.stream_id;
  const newTopic = plan.newTopic ?? row.topic;
  const ts = Math.floor(now);
  let contentHolders: { user_id: number; flags: number }[] = [];
  const flagsAfter = new Map<number, number>();
  const lost: number[] = [];
  const gained: number[] = [];
  let effects = null as AttachmentEffects | null;
  const movedRows = moved ? await listMessagesByIds(app.db, plan.moveIds) : [];
  const holdersBefore = moved ? await mapHolders(app.db, plan.moveIds) : new Map<number, number[]>();
  const topicMove = moved && oldStream ? await describeTopicMove(app, d, me, row, input, plan, oldStream, newStreamId!, newTopic) : null;
  const policyChanges: PolicyChange[] = [];

  await app.db.tx(async (sql: Sql) => {
    if (plan.newContent) {
      const c = plan.newContent;
      const history = row.edit_history ? JSON.parse(row.edit_history) : [];
      const entry: Record<string, unknown> = { user_id: me.id, timestamp: ts, prev_content: row.content, prev_rendered_content: row.rendered_content };
      if (moved && row.id && plan.moveIds.includes(row.id)) Object.assign(entry, moveEntry(row, plan));
      history.unshift(entry);
      await updateMessageRow(sql, row.id, {
        content: c.content,
        rendered_content: c.html,
        is_me_message: c.isMe ? 1 : 0,
        has_link: c.hasLink ? 1 : 0,
        has_image: c.hasImage ? 1 : 0,
        has_attachment: c.hasAttachment ? 1 : 0,
        last_edit_time: now,
        edit_history: JSON.stringify(history),
      });
      row.edit_history = JSON.stringify(history);
      contentHolders = await listHolders(sql, row.id);
      const keep = FLAG.read | FLAG.starred | FLAG.collapsed | FLAG.historical;
      const changes: { userId: number; flags: number }[] = [];
      for (const h of contentHolders) {
        const next = (h.flags & keep) | c.flagsOf(h.user_id);
        flagsAfter.set(h.user_id, next);
        if (next !== h.flags) changes.push({ userId: h.user_id, flags: next });
      }
      await setFlags(sql, row.id, changes);
      const kind = oldStream ? channelKind(oldStream) : null;
      effects = (
        await syncMessageAttachments(sql, app, {
          messageId: row.id,
          senderId: row.sender_id,
          uploadPaths: c.uploadPaths,
          isRealmPublic: kind === "public" || kind === "web_public",
          isWebPublic: kind === "web_public",
        })
      ).effects;
    }
    if (moved) {
      const movedTime = plan.resolve ? null : now;
      await moveMessages(
        sql,
        movedRows.map((m) => {
          const history = m.id === row.id && row.edit_history ? JSON.parse(row.edit_history) : m.edit_history ? JSON.parse(m.edit_history) : [];
          if (!(m.id === row.id && plan.newContent)) history.unshift({ user_id: me.id, timestamp: ts, ...moveEntry(m, plan) });
          return { id: m.id, streamId: newStreamId!, recipientId: (plan.newStream ?? oldStream)!.recipient_id ?? m.recipient_id, topic: newTopic, editHistory: JSON.stringify(history), movedTime };
        }),
      );
      if (plan.newStream && oldStream) {
        // Zulip's rules: subscribers of a new channel with protected history get rows (read); users who
        // may not read the new channel lose theirs (and get delete_message); so do those subscribed to
        // the old channel and not to the new one (unread messages stay in subscribed channels).
        const ns = plan.newStream;
        const newSubs = new Set(await d.subscriberIds(sql, ns.id));
        const holders = [...new Set([...holdersBefore.values()].flat())];
        const mayRead = (u: number) => {
          const user = d.users.get(u);
          if (!user) return false;
          const a = channelAccess(app, user, ns, false);
          return hasContentAccess(a) && canAccessHistory(a);
        };
        for (const u of new Set([...holders, ...(await d.subscriberIds(sql, oldStream.id))])) if (!newSubs.has(u) && !mayRead(u)) lost.push(u);
        const oldMembers = new Set((await listSubscriptionRows(sql, holders, [oldStream.id])).map((r) => r.user_id));
        const rowsLost = holders.filter((u) => !newSubs.has(u) && (oldMembers.has(u) || lost.includes(u)));
        if (!ns.history_public_to_subscribers) gained.push(...newSubs);
        if (gained.length) await insertUserMessages(sql, gained.flatMap((u) => plan.moveIds.map((id) => ({ userId: u, messageId: id, flags: FLAG.read }))));
        await deleteUserMessages(sql, rowsLost, plan.moveIds);
      }
      if (topicMove?.movedAll) {
        const m = { fromStream: oldStream!.id, fromTopic: row.topic, toStream: newStreamId!, toTopic: newTopic, targetHadMessages: topicMove.targetHadMessages, losingAccess: new Set(lost), now: ts };
        policyChanges.push(...(await migrateTopicPolicies(sql, m)));
      } else if (topicMove?.senderStarts) {
        // a partial move that makes the sender's message the first of its new topic: they "started" it
        const sender = d.users.get(row.sender_id);
        if (sender && !sender.is_bot && !lost.includes(sender.id)) {
          const sub = (await listSubscriptionRows(sql, [sender.id], [newStreamId!]))[0];
          const c = await initiationPolicy(sql, sender.id, autoPrefs(sender.prefs), newStreamId!, newTopic, Boolean(sub?.active && sub.is_muted), ts);
          if (c) policyChanges.push(c);
        }
      }
    }
  });
  if (effects) await applyAttachmentEffects(app, effects);
  await publishPolicyChanges(app, policyChanges, ts);
  await publishEdit(app, d, me, row, input, plan, ts, { contentHolders, flagsAfter, holdersBefore, lost, gained });
  if (moved && oldStream) await notifyMove(app, d, me, row, input, plan, now, topicMove!.movedAll);
  return { detached_uploads: detachedUploads(effects, me.id) };
}

/** The editor's uploads that the edit left linked to no message (Zulip asks whether to delete them). */
function detachedUploads(effects: AttachmentEffects | null, userId: number): unknown[] {
  if (!effects) return [];
  return effects.events
    .filter(({ userId: u, event }) => u === userId && event.op === "update")
    .map(({ event }) => event.attachment as { messages?: unknown[] })
    .filter((a) => Array.isArray(a.messages) && a.messages.length === 0);
}

function moveEntry(m: MessageRow, plan: Plan): Record<string, unknown> {
  const e: Record<string, unknown> = {};
  if (plan.newStream && plan.newStream.id !== m.stream_id) Object.assign(e, { prev_stream: m.stream_id, stream: plan.newStream.id });
  if (plan.newTopic !== null && plan.newTopic !== m.topic) Object.assign(e, { prev_topic: m.topic, topic: plan.newTopic });
  return e;
}

async function publishEdit(
  app: App,
  d: Directory,
  me: UserRow,
  row: MessageRow,
  input: EditInput,
  plan: Plan,
  ts: number,
  x: { contentHolders: { user_id: number; flags: number }[]; flagsAfter: Map<number, number>; holdersBefore: Map<number, number[]>; lost: number[]; gained: number[] },
) {
  const oldStream = row.stream_id !== null ? d.streams.get(row.stream_id) : undefined;
  const event: Record<string, unknown> = {
    type: "update_message",
    user_id: me.id,
    edit_timestamp: ts,
    message_id: row.id,
    message_ids: plan.moveIds.length ? plan.moveIds : [row.id],
    rendering_only: false,
  };
  if (oldStream) Object.assign(event, { stream_id: oldStream.id, stream_name: oldStream.name });
  if (plan.newContent) {
    Object.assign(event, {
      orig_content: row.content,
      orig_rendered_content: row.rendered_content,
      content: plan.newContent.content,
      rendered_content: plan.newContent.html,
      is_me_message: plan.newContent.isMe,
    });
  }
  if (plan.newTopic !== null || plan.newStream !== null) {
    Object.assign(event, { propagate_mode: input.propagateMode, orig_subject: row.topic });
    if (plan.newTopic !== null) Object.assign(event, { subject: plan.newTopic, topic_links: topicLinks(plan.newTopic, await linkifierList(app)) });
    if (plan.newStream) event.new_stream_id = plan.newStream.id;
  }
  const holders = new Set<number>([...x.contentHolders.map((h) => h.user_id), ...[...x.holdersBefore.values()].flat(), ...x.gained]);
  for (const u of x.lost) holders.delete(u);
  if (holders.size === 0) for (const h of await listHolders(app.db, row.id)) holders.add(h.user_id);
  const audience = await messageAudience(app, d, { ...row, stream_id: plan.newStream?.id ?? row.stream_id }, [...holders]);
  const flagsNow = x.flagsAfter.size ? x.flagsAfter : new Map((await listHolders(app.db, row.id)).map((h) => [h.user_id, h.flags]));
  app.events.publishEach(
    audience.filter((u) => !x.lost.includes(u)),
    // Subscribers without a row see the message as read (Zulip's subscriber_info).
    (u) => ({ ...event, flags: flagList(flagsNow.get(u) ?? FLAG.read) }) as any,
  );
  if (x.lost.length && oldStream) {
    app.events.publish({ type: "delete_message", message_type: "stream", message_ids: plan.moveIds, stream_id: oldStream.id, topic: row.topic }, x.lost);
  }
}

/** Zulip's RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS: undoing a (un)resolve this soon deletes its notice instead of adding one. */
const RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECS = 60;
const RESOLVE_NOTICE = /^@_\*\*[^*]+\|\d+\*\* has marked this topic as (un)?resolved\.$/;

/**
 * What a move means for topic policies, read before it: whether the whole topic moved as the mover
 * sees it (change_all, or nothing they can see stays behind), whether the destination already had
 * messages, and whether the edited message becomes the first its sender can see there.
 */
async function describeTopicMove(app: App, d: Directory, me: UserRow, row: MessageRow, input: EditInput, plan: Plan, oldStream: StreamRow, newStreamId: number, newTopic: string) {
  const moving = new Set(plan.moveIds);
  const stays = (await listTopicMessageIds(app.db, oldStream.id, row.topic)).filter((id) => !moving.has(id));
  const movedAll = input.propagateMode === "change_all" || !(await seesAny(app, d, me, oldStream, stays));
  const there = (await listTopicMessageIds(app.db, newStreamId, newTopic)).filter((id) => !moving.has(id));
  let senderStarts = false;
  const sender = d.users.get(row.sender_id);
  const newStream = d.streams.get(newStreamId);
  if (!movedAll && sender && newStream) {
    const seen = await visibleIds(app, d, sender, newStream, there);
    senderStarts = seen.length === 0 || row.id < Math.min(...seen);
  }
  return { movedAll, targetHadMessages: there.length > 0, senderStarts };
}

/**
 * Zulip's resolve/unresolve and move notices, posted by the Notification Bot and born read for the
 * acting user. A resolve (not combined with a content edit or a channel move) gets its notice,
 * unless it undoes one posted in the last minute, which is then deleted. A move notifies the new
 * topic (unless it only resolves) and, when asked, the old one; "This topic was moved" when every
 * message the user could see in the old topic went (and, for the new topic, it had none they could see).
 */
async function notifyMove(app: App, d: Directory, me: UserRow, row: MessageRow, input: EditInput, plan: Plan, now: number, movedAll: boolean) {
  const who = silentMention(me);
  const readBy = [me.id];
  const oldStream = d.streams.get(row.stream_id!)!;
  const newStream = plan.newStream ?? oldStream;
  const newTopic = plan.newTopic ?? row.topic;
  if (plan.resolve && !plan.newContent) {
    if (!(await undoResolveNotice(app, d, me, oldStream, newTopic, plan, now))) {
      await sendNotification(app, oldStream, newTopic, `${who} has marked this topic as ${plan.resolve}.`, { readBy });
    }
  }
  const n = plan.moveIds.length;
  const moved = new Set(plan.moveIds);
  const link = (s: StreamRow, t: string) => `#**${s.name}>${t}**`;
  if (input.notifyNewThread && !plan.resolve) {
    const preexisting = (await listTopicMessageIds(app.db, newStream.id, newTopic)).filter((id) => !moved.has(id));
    const messageLink = `${app.config.server.external_url}${topicNarrowUrl(newStream.id, newStream.name, newTopic)}/near/${row.id}`;
    const text =
      movedAll && !(await seesAny(app, d, me, newStream, preexisting))
        ? `This topic was moved here from ${link(oldStream, row.topic)} by ${who}.`
        : n === 1
          ? `[A message](${messageLink}) was moved here from ${link(oldStream, row.topic)} by ${who}.`
          : `${n} messages were moved here from ${link(oldStream, row.topic)} by ${who}.`;
    await sendNotification(app, newStream, newTopic, text, { readBy });
  }
  if (input.notifyOldThread) {
    const text = movedAll
      ? `This topic was moved to ${link(newStream, newTopic)} by ${who}.`
      : n === 1
        ? `A message was moved from this topic to ${link(newStream, newTopic)} by ${who}.`
        : `${n} messages were moved from this topic to ${link(newStream, newTopic)} by ${who}.`;
    await sendNotification(app, oldStream, row.topic, text, { readBy });
  }
}

/** Which of these messages of a channel the user can see: all when they may read its history, else the ones they received. */
async function visibleIds(app: App, d: Directory, user: ChannelUser, stream: StreamRow, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const access = channelAccess(app, user, stream, (await d.subscriberIds(app.db, stream.id)).includes(user.id));
  if (!hasContentAccess(access)) return [];
  if (canAccessHistory(access)) return ids;
  const received = await mapFlags(app.db, user.id, ids);
  return ids.filter((id) => received.has(id));
}

const seesAny = async (app: App, d: Directory, me: ChannelUser, stream: StreamRow, ids: number[]) => (await visibleIds(app, d, me, stream, ids)).length > 0;

/**
 * Zulip's maybe_delete_previous_resolve_topic_notification: when the topic's newest message (after
 * the move) is a resolve notice under a minute old, the change undoes it: the notice is deleted.
 */
async function undoResolveNotice(app: App, d: Directory, me: UserRow, stream: StreamRow, topic: string, plan: Plan, now: number): Promise<boolean> {
  const ids = await listTopicMessageIds(app.db, stream.id, topic, Math.max(...plan.moveIds));
  const last = ids.length ? await findMessage(app.db, ids[ids.length - 1]!) : undefined;
  if (!last || now - last.date_sent > RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECS) return false;
  if (last.sender_id !== (await notificationBot(app)).id || !RESOLVE_NOTICE.test(last.content)) return false;
  await removeMessage(app, d, last, me.id);
  return true;
}
