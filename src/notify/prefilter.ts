/**
 * Which recipient rows the scan reads at all. Most channel messages notify nobody: reading and deciding
 * every recipient's row cost more than half of a send. A row can only notify (decide.ts, the single
 * source of truth, has the final word) when the message is direct, the row carries a mention flag, or
 * the recipient's settings notify for messages of the channel without a mention (channel email/push,
 * or followed topics with their switches on). So the scan reads the rows with a mention flag or of
 * these "candidates", kept per channel until its settings change. The rule here must stay a superset
 * of decide.ts: test/notify/scan-prefilter.test.ts checks it over random settings.
 */
import { FLAG } from "../domain/flags";
import { userSettings, type UserSettings } from "../domain/user-settings";
import { VISIBILITY } from "../domain/user-topics";
import type { Directory } from "../actions/messages/directory";
import type { ChannelNotifyState, SubscriptionNotifyRow } from "../store/notify";

/** The flags that make a channel message notify whatever the channel's switches. */
export const MENTION_FLAGS = FLAG.mentioned | FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned;

type ChannelSwitches = Pick<
  UserSettings,
  "enable_stream_email_notifications" | "enable_stream_push_notifications" | "enable_followed_topic_email_notifications" | "enable_followed_topic_push_notifications"
>;

/**
 * Whether a subscriber may be notified of a channel message that does not mention them: the
 * subscription's email/push switch (or their default for channels), or, when they follow a topic
 * of the channel, their followed-topic switches.
 */
export function mayNotifyUnmentioned(s: ChannelSwitches, sub: Pick<SubscriptionNotifyRow, "email_notifications" | "push_notifications">, followsATopic: boolean): boolean {
  const on = (v: number | null, fallback: boolean) => (v === null ? fallback : v === 1);
  if (on(sub.email_notifications, s.enable_stream_email_notifications) || on(sub.push_notifications, s.enable_stream_push_notifications)) return true;
  return followsATopic && (s.enable_followed_topic_email_notifications || s.enable_followed_topic_push_notifications);
}

/** What the scan derives from a channel's state: kept with it (the store hands back the same object until it changes). */
export interface ChannelIndex {
  subOf: Map<number, SubscriptionNotifyRow>;
  /** lower-cased topic → user → visibility policy */
  policiesOf: Map<string, Map<number, number>>;
  /** the candidates, and the directory's users version they were computed at (settings live in users) */
  candidates: Set<number>;
  usersVersion: number | undefined;
}

const indexes = new WeakMap<ChannelNotifyState, ChannelIndex>();

export function channelIndex(state: ChannelNotifyState, d: Directory): ChannelIndex {
  let ix = indexes.get(state);
  if (!ix) {
    const policiesOf = new Map<string, Map<number, number>>();
    for (const t of state.topics) {
      const key = t.topic.toLowerCase();
      let byUser = policiesOf.get(key);
      if (!byUser) policiesOf.set(key, (byUser = new Map()));
      byUser.set(t.user_id, t.visibility_policy);
    }
    ix = { subOf: new Map(state.subs.map((s) => [s.user_id, s])), policiesOf, candidates: new Set(), usersVersion: undefined };
    indexes.set(state, ix);
  }
  if (ix.usersVersion === undefined || ix.usersVersion !== d.versions.users) {
    const followers = new Set(state.topics.filter((t) => t.visibility_policy === VISIBILITY.followed).map((t) => t.user_id));
    ix.candidates = new Set();
    for (const sub of state.subs) {
      const u = d.users.get(sub.user_id);
      if (!u || !u.is_active || u.is_bot) continue;
      if (mayNotifyUnmentioned(userSettings({ settings: u.settings, timezone: "" }), sub, followers.has(sub.user_id))) ix.candidates.add(sub.user_id);
    }
    ix.usersVersion = d.versions.users;
  }
  return ix;
}
