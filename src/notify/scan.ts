import { nowSecs, type App } from "../app";
import { OFFLINE_THRESHOLD_SECS } from "../domain/presence";
import { userSettings } from "../domain/user-settings";
import { loadDirectory, type Directory } from "../actions/messages/directory";
import {
  insertMissedRows,
  listLastActive,
  listMessagesAfter,
  listMutersOf,
  listSubscriptionNotifySettings,
  listTopicPolicies,
  listUnreadRecipients,
  notifyCursor,
  setNotifyCursor,
  type MissedRow,
  type ScannedMessage,
} from "../store/notify";
import { decideNotifications, type RecipientFacts, type Trigger } from "./decide";
import { enqueueWebPush } from "./webpush/outbox";

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
    const messages = await listMessagesAfter(app.db, after, SCAN_BATCH);
    if (!messages.length) return total;
    const d = await loadDirectory(app);
    const { emails, pushes } = await decideBatch(app, d, messages);
    const last = messages[messages.length - 1]!.id;
    await app.db.tx(async (sql) => {
      // another scan moved the cursor meanwhile (two processes on one remote database): it wrote these
      if ((await notifyCursor(sql)) !== after) return;
      await insertMissedRows(sql, emails);
      for (const p of pushes) await enqueueWebPush(sql, { ...p, now: nowSecs(app) });
      await setNotifyCursor(sql, last);
    });
    total += messages.length;
    if (messages.length < SCAN_BATCH) return total;
    // the engine is synchronous: without a turn of the event loop between batches, a second's worth of
    // sends under load (thousands) would be scanned in one stretch, holding every request meanwhile
    await new Promise((r) => setImmediate(r));
  }
}

async function decideBatch(app: App, d: Directory, messages: ScannedMessage[]) {
  const emails: MissedRow[] = [];
  const pushes: { userId: number; messageId: number; trigger: Trigger }[] = [];
  const rows = await listUnreadRecipients(app.db, messages.map((m) => m.id));
  if (!rows.length) return { emails, pushes };
  const streamIds = [...new Set(messages.map((m) => m.stream_id).filter((s): s is number => s !== null))];
  const [subs, topics, muters, presence] = await Promise.all([
    streamIds.length ? listSubscriptionNotifySettings(app.db, streamIds) : [],
    streamIds.length ? listTopicPolicies(app.db, streamIds) : [],
    listMutersOf(app.db, [...new Set(messages.map((m) => m.sender_id))]),
    listLastActive(app.db, [...new Set(rows.map((r) => r.user_id))]),
  ]);
  const subOf = new Map(subs.map((s) => [`${s.user_id}:${s.stream_id}`, s]));
  // by topic, then user: the topic's key is made once per message, not once per recipient row
  const policiesOf = new Map<string, Map<number, number>>();
  for (const t of topics) {
    const key = `${t.stream_id}:${t.topic.toLowerCase()}`;
    let byUser = policiesOf.get(key);
    if (!byUser) policiesOf.set(key, (byUser = new Map()));
    byUser.set(t.user_id, t.visibility_policy);
  }
  const topicPolicies = new Map(messages.map((m) => [m.id, m.stream_id === null ? undefined : policiesOf.get(`${m.stream_id}:${m.topic.toLowerCase()}`)]));
  const muted = new Set(muters.map((m) => `${m.user_id}:${m.muted_user_id}`));
  const lastActive = new Map(presence.map((p) => [p.user_id, p.last_active_time]));
  const byId = new Map(messages.map((m) => [m.id, m]));
  const now = nowSecs(app);
  // each user's settings parsed once per batch, not once per row (a row per recipient and message)
  const settingsOf = new Map<number, ReturnType<typeof userSettings>>();
  for (const r of rows) {
    const m = byId.get(r.message_id)!;
    if (m.date_sent < now - STALE_SECS) continue;
    const u = d.users.get(r.user_id);
    if (!u || !u.is_active) continue;
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
      const s = subOf.get(`${r.user_id}:${m.stream_id}`);
      if (!s) continue; // no longer subscribed
      facts.channel = {
        muted: s.is_muted === 1,
        topicPolicy: topicPolicies.get(m.id)?.get(r.user_id) ?? 0,
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
      const group = decision.email === "mentioned" ? mentionedGroupOf(app, m.rendered_content, r.user_id) : null;
      emails.push({ user_id: r.user_id, message_id: m.id, trigger: decision.email, mentioned_group_id: group, due: now + Number(settings.email_notifications_batching_period_seconds) });
    }
    if (decision.push) pushes.push({ userId: r.user_id, messageId: m.id, trigger: decision.push });
  }
  return { emails, pushes };
}
