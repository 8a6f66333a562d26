import type { App } from "../app";
import type { Job } from "./loop";
import { deleteExpiredSessionsNow } from "../actions/sessions";
import { deliverDueScheduledMessages } from "../actions/scheduled-delivery";
import { deleteUnreferencedUploads } from "../actions/uploads";
import { expireTusUploads } from "../actions/tus";
import { deleteStaleInvites } from "../actions/invites";
import { applyMessageRetention } from "../actions/retention";
import { markIdlePresenceOffline } from "../actions/presence";
import { syncFullMembers } from "../actions/user-updates";
import { raiseUnreadFloorsWhenQuiet } from "../actions/messages/unread-floors";
import { backUpWhenDue } from "../actions/backups";
import { deliverDueWebPushes } from "../notify/webpush/deliver";
import { deliverOutgoingWebhooks } from "../actions/outgoing-webhooks";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const job = (name: string, intervalMs: number, run: (app: App, signal: AbortSignal) => unknown): Job => ({ name, intervalMs, run: async (app, signal) => run(app, signal) });

/** Every job of the built-in loop. Each only calls an action. */
export function defaultJobs(): Job[] {
  return [
    // "at the timestamp, within a second": the loop ticks every 250 ms
    job("deliver-scheduled-messages", 500, deliverDueScheduledMessages),
    // the Web Push outbox (src/notify/webpush/deliver.ts): due pushes, retries with back-off
    job("deliver-web-pushes", SECOND, deliverDueWebPushes),
    // messages to outgoing-webhook bots, POSTed off the send path (bounded retries with back-off)
    job("deliver-outgoing-webhooks", SECOND, deliverOutgoingWebhooks),
    // unread floors follow each user's newest rows once sends are quiet (actions/messages/unread-floors.ts)
    job("raise-unread-floors", SECOND, raiseUnreadFloorsWhenQuiet),
    // idle event queues (Zulip runs this every minute)
    job("gc-event-queues", MINUTE, (app) => app.events.gc()),
    job("expire-sessions", HOUR, deleteExpiredSessionsNow),
    // uploads never linked from a message after [retention] unreferenced_upload_days
    job("delete-unreferenced-uploads", HOUR, deleteUnreferencedUploads),
    job("expire-tus-uploads", 10 * MINUTE, expireTusUploads),
    // invitation links: expired ones already refuse sign-ups; a week later they are deleted
    job("delete-stale-invites", HOUR, deleteStaleInvites),
    // channel and organization message_retention_days
    job("apply-message-retention", 6 * HOUR, applyMessageRetention),
    // clients derive "offline" from the timestamps; this only drops the cache of users gone quiet
    job("mark-presence-offline", MINUTE, markIdlePresenceOffline),
    // members whose waiting period has passed join role:fullmembers (Zulip's daily promote_new_full_members)
    job("sync-full-members", HOUR, (app) => (app.realm ? syncFullMembers(app) : undefined)),
    // [backup] dir: an archive every every_hours (it checks the newest archive's time), the oldest pruned
    job("backup", MINUTE, backUpWhenDue),
  ];
}
