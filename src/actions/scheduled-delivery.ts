import { nowSecs, type App } from "../app";
import { ZulipError } from "../errors";
import { claimDelivery, listDueScheduledMessages, markScheduledMessageFailed, type ScheduledMessageRow } from "../store/scheduled-messages";
import { findUserById } from "../store/users";
import { sendNotificationDm } from "./messages/notification-bot";
import { sendMessage } from "./messages/send";
import { scheduledMessageDict } from "./scheduled-messages";

const BATCH = 100;
/** Unexpected (non-Zulip) errors are retried on later ticks this often before the message is marked failed. */
const MAX_UNEXPECTED_FAILURES = 5;

/** The row changed (edited, cancelled, delivered elsewhere) while we were sending: roll the send back. */
class Superseded extends Error {}

const unexpectedFailures = new WeakMap<App, Map<number, number>>();

/** Zulip's failure notice from Notification Bot (send_failed_scheduled_message_notification). */
export function failureNotice(row: Pick<ScheduledMessageRow, "scheduled_timestamp">, error: string): string {
  const when = new Date(row.scheduled_timestamp * 1000).toISOString().replace(/\.\d{3}Z$/, "+00:00");
  return [`The message you scheduled for <time:${when}> was not sent because of the following error:`, `> ${error}`, "[View scheduled messages](#scheduled)"].join("\n\n");
}

/**
 * The timer loop's job: sends every pending scheduled message whose time has come, as its sender,
 * through the normal send action. The message's writes and the row's `delivered` mark commit in the
 * same transaction (claimDelivery inside the send), so a crash, a restart or a concurrent run can
 * never send it twice nor lose it. Messages overdue after downtime go out at once. A message that can
 * no longer be sent is marked failed, and its sender gets an `update` event and Notification Bot's
 * notice. Returns how many were delivered.
 */
export async function deliverDueScheduledMessages(app: App): Promise<number> {
  if (!app.realm) return 0;
  let delivered = 0;
  for (;;) {
    const due = await listDueScheduledMessages(app.db, Math.floor(nowSecs(app)), BATCH);
    let settled = 0;
    for (const row of due) {
      const outcome = await deliverOne(app, row);
      if (outcome === "delivered") delivered++;
      if (outcome !== "retry") settled++;
    }
    // a full batch, all settled: there may be more due
    if (due.length < BATCH || settled < due.length) return delivered;
  }
}

type Outcome = "delivered" | "failed" | "skipped" | "retry";

async function deliverOne(app: App, row: ScheduledMessageRow): Promise<Outcome> {
  const sender = await findUserById(app.db, row.sender_id);
  // Zulip re-checks the account and organization first; nobody is told of those failures.
  if (!sender || !sender.is_active) return fail(app, row, "Account is deactivated", false);
  if (app.realm?.deactivated) return fail(app, row, "This organization has been deactivated", false);
  try {
    const to = row.type === "stream" ? row.stream_id : (JSON.parse(row.to_user_ids ?? "[]") as number[]);
    await sendMessage(
      app,
      sender,
      { type: row.type, to, topic: row.topic, content: row.content, readBySender: row.read_by_sender === 1 },
      {
        clientName: row.client,
        inTransaction: async (sql, messageId) => {
          if (!(await claimDelivery(sql, row, messageId))) throw new Superseded();
        },
      },
    );
  } catch (e) {
    if (e instanceof Superseded) return "skipped";
    if (e instanceof ZulipError) return fail(app, row, e.message, true);
    return unexpected(app, row, e);
  }
  unexpectedFailures.get(app)?.delete(row.id);
  app.events.publish({ type: "scheduled_messages", op: "remove", scheduled_message_id: row.id }, [row.sender_id]);
  return "delivered";
}

/** An error that is not the message's fault (database, bug): left pending and retried, for a while. */
async function unexpected(app: App, row: ScheduledMessageRow, e: unknown): Promise<Outcome> {
  let counts = unexpectedFailures.get(app);
  if (!counts) unexpectedFailures.set(app, (counts = new Map()));
  const n = (counts.get(row.id) ?? 0) + 1;
  counts.set(row.id, n);
  app.log.error("scheduled message delivery failed unexpectedly", { scheduled_message_id: row.id, attempt: n, error: (e as Error)?.message ?? String(e) });
  if (n < MAX_UNEXPECTED_FAILURES) return "retry";
  counts.delete(row.id);
  return fail(app, row, "Internal server error", true);
}

async function fail(app: App, row: ScheduledMessageRow, message: string, notify: boolean): Promise<Outcome> {
  const marked = await app.db.tx((sql) => markScheduledMessageFailed(sql, row, message));
  if (!marked) return "skipped";
  if (!notify) return "failed";
  app.events.publish({ type: "scheduled_messages", op: "update", scheduled_message: scheduledMessageDict({ ...row, failed: 1, failure_message: message }) }, [row.sender_id]);
  try {
    await sendNotificationDm(app, [row.sender_id], failureNotice(row, message));
  } catch (e) {
    app.log.error("could not send the scheduled message failure notice", { scheduled_message_id: row.id, error: (e as Error)?.message ?? String(e) });
  }
  return "failed";
}
