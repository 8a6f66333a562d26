import { nowSecs, type App } from "../app";
import { OFFLINE_THRESHOLD_SECS } from "../domain/presence";
import { userSettings } from "../domain/user-settings";
import { loadDirectory, type Directory } from "../actions/messages/directory";
import {
  channelNotifyState,
  insertMissedRows,
  listLastActive,
  listMaybeNotifiedRows,
  listMessageHeadsAfter,
  listMutersOf,
  listGroupMentionContent,
  notifyCursor,
  setNotifyCursor,
  type MessageHead,
  type MissedRow,
} from "../store/notify";
import { decideNotifications, type RecipientFacts, type Trigger } from "./decide";
import { channelIndex, type ChannelIndex } from "./prefilter";
import { enqueueWebPushes } from "./webpush/outbox";

/** Messages read per transaction of the scan. */
const SCAN_BATCH = 200;
/** Older messages never notify (imported history, a message moved in from long ago): Zulip only notifies at send. */
export const STALE_SECS = 3600;

/**
 * Zulip's "active client" (receiver_is_off_zulip and the presence-idle check of
 * maybe_enqueue_notifications): an event queue that receives messages and is polling, or polled
 * within OFFLINE_THRESHOLD_SECS, and presence reported active within that time.
 */
function isActiveClient(app: App, userId: number, lastActive: Map<number, number | null>): boolean {
  const since = nowSecs(app) - OFFLINE_THRESHOLD_SECS;
  const active = lastActive.get(userId);
  return active != null && active >= since && app.events.hasLiveMessageQueue(userId, since * 1000);
}

/** The group through which the user was mentioned, when not personally (the email names it). */
function mentionedGroupOf(app: App, html: string, userId: number): number | null {
  if (html.includes(`data-user-id="${userId}"`)) return null;
  for (const m of html.matchAll(/data-user-group-id="(\d+)"/g)) if (app.groups.allMembers(Number(m[1])).has(userId)) return Number(m[1]);
  return null;
}

const sub = (v: number | null) => (v === null ? null : v === 1);

/**
 * Timer job: reads the messages sent since the last run (a cursor in the database, so nothing is
 * written on the send path and a crash loses nothing), decides per recipient, and writes the
 * missed-message email rows (due after the person's batching period) and the Web Push rows
 * (src/notify/webpush/) with the cursor's move, in one transaction.
 */
export async function scanNewMessages(app: App): Promise<number> {
  if (!app.realm) return 0;
  let total = 0;
  for (;;) {
    const after = await notifyCursor(app.db);
    const messages = await listMessageHeadsAfter(app.db, after, SCAN_BATCH);
    if (!messages.length) return total;
    const d = await loadDirectory(app);
    const { emails, pushes } = await decideBatch(app, d, messages);
    const last = messages[messages.length - 1]!.id;
    await app.db.tx(async (sql) => {
      // another scan moved the cursor meanwhile (two processes on one remote database): it wrote these
      if ((await notifyCursor(sql)) !== after) return;
      await insertMissedRows(sql, emails);
      await enqueueWebPushes(sql, pushes, nowSecs(app));
      await setNotifyCursor(sql, last);
    });
    total += messages.length;
    if (messages.length < SCAN_BATCH) return total;
    // the engine is synchronous: without a turn of the event loop between batches, a second's worth of
    // sends under load (thousands) would be scanned in one stretch, holding every request meanwhile
    await new Promise((r) => setImmediate(r));
  }
}

/**
 * The decisions for a batch. Only the rows that may notify are read (./prefilter.ts): with nobody
 * mentioned and no channel or followed-topic notifications on, a channel message costs no row at all.
 */
async function decideBatch(app: App, d: Directory, batch: MessageHead[]) {
  const emails: MissedRow[] = [];
  const pushes: { userId: number; messageId: number; trigger: Trigger }[] = [];
  const now = nowSecs(app);
  const messages = batch.filter((m) => m.date_sent >= now - STALE_SECS);
  if (!messages.length) return { emails, pushes };
  const channels = new Map<number, ChannelIndex>();
  for (const streamId of new Set(messages.map((m) => m.stream_id).filter((s): s is number => s !== null))) {
    channels.set(streamId, channelIndex(await channelNotifyState(app.db, streamId, d.versions.subscriptions ?? 0), d));
  }
  const candidates = new Set<number>();
  const subscribers = new Set<number>();
  for (const c of channels.values()) {
    for (const u of c.candidates) candidates.add(u);
    for (const u of c.subOf.keys()) subscribers.add(u);
  }
  const directIds = messages.filter((m) => m.stream_id === null).map((m) => m.id);
  const rows = await listMaybeNotifiedRows(app.db, messages[0]!.id, messages[messages.length - 1]!.id, directIds, [...subscribers], [...candidates]);
  if (!rows.length) return { emails, pushes };
  const byId = new Map(messages.map((m) => [m.id, m]));
  // (a stale message within the range has no entry: its rows are passed over)
  const [muters, presence] = await Promise.all([
    listMutersOf(app.db, [...new Set(messages.map((m) => m.sender_id))]),
    listLastActive(app.db, [...new Set(rows.map((r) => r.user_id))]),
  ]);
  const muted = new Set(muters.map((m) => `${m.user_id}:${m.muted_user_id}`));
  const lastActive = new Map(presence.map((p) => [p.user_id, p.last_active_time]));
  // each user's settings parsed once per batch, not once per row
  const settingsOf = new Map<number, ReturnType<typeof userSettings>>();
  /** emails for a group mention: the group is found in the message's HTML, read afterwards for these only */
  const groupMentions: MissedRow[] = [];
  for (const r of rows) {
    const m = byId.get(r.message_id);
    const u = d.users.get(r.user_id);
    if (!m || !u || !u.is_active) continue;
    let settings = settingsOf.get(r.user_id);
    if (!settings) settingsOf.set(r.user_id, (settings = userSettings({ settings: u.settings, timezone: "" })));
    const facts: RecipientFacts = {
      userId: r.user_id,
      flags: r.flags,
      isBot: Boolean(u.is_bot),
      settings,
      senderMuted: muted.has(`${r.user_id}:${m.sender_id}`),
      activeClient: false,
    };
    if (m.stream_id !== null) {
      const c = channels.get(m.stream_id)!;
      const s = c.subOf.get(r.user_id);
      if (!s) continue; // no longer subscribed
      facts.channel = {
        muted: s.is_muted === 1,
        topicPolicy: c.policiesOf.get(m.topic.toLowerCase())?.get(r.user_id) ?? 0,
        emailNotify: sub(s.email_notifications),
        pushNotify: sub(s.push_notifications),
        wildcardNotify: sub(s.wildcard_mentions_notify),
      };
    }
    const message = { senderId: m.sender_id, direct: m.stream_id === null };
    // the presence check only for those a notification may reach
    const maybe = decideNotifications(message, facts);
    if (!maybe.email && !maybe.push) continue;
    facts.activeClient = isActiveClient(app, r.user_id, lastActive);
    const decision = facts.activeClient ? decideNotifications(message, facts) : maybe;
    if (decision.email) {
      const row = { user_id: r.user_id, message_id: m.id, trigger: decision.email, mentioned_group_id: null, due: now + Number(settings.email_notifications_batching_period_seconds) };
      emails.push(row);
      if (decision.email === "mentioned") groupMentions.push(row);
    }
    if (decision.push) pushes.push({ userId: r.user_id, messageId: m.id, trigger: decision.push });
  }
  if (groupMentions.length) {
    const html = new Map((await listGroupMentionContent(app.db, [...new Set(groupMentions.map((e) => e.message_id))])).map((m) => [m.id, m.rendered_content]));
    for (const e of groupMentions) {
      const h = html.get(e.message_id);
      if (h) e.mentioned_group_id = mentionedGroupOf(app, h, e.user_id);
    }
  }
  return { emails, pushes };
}
