import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { startServer, type CastName, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { sendDm, sendStream } from "../helpers/messages";
import { scanNewMessages } from "../../src/notify/scan";
import { decideNotifications, type RecipientFacts } from "../../src/notify/decide";
import { MENTION_FLAGS, mayNotifyUnmentioned } from "../../src/notify/prefilter";
import { listMaybeNotifiedRows, MENTION_FLAG_BITS } from "../../src/store/notify";
import { userSettings } from "../../src/domain/user-settings";
import { FLAG } from "../../src/domain/flags";
import { VISIBILITY } from "../../src/domain/user-topics";

/**
 * The scan reads only the rows that may notify (src/notify/prefilter.ts); decideNotifications has the
 * final word. The prefilter must let through every row the decision would notify: checked here over
 * random settings, flags and topic policies, first on the rule itself, then on the scan against a
 * decision over every row.
 */

const SWITCHES = [
  "enable_offline_email_notifications",
  "enable_offline_push_notifications",
  "enable_online_push_notifications",
  "enable_followed_topic_email_notifications",
  "enable_followed_topic_push_notifications",
  "enable_stream_email_notifications",
  "enable_stream_push_notifications",
  "wildcard_mentions_notify",
  "enable_followed_topic_wildcard_mentions_notify",
] as const;

const switches = fc.record(Object.fromEntries(SWITCHES.map((k) => [k, fc.boolean()])) as Record<(typeof SWITCHES)[number], fc.Arbitrary<boolean>>);
const override = fc.constantFrom(null, 0, 1);
const asBool = (v: number | null) => (v === null ? null : v === 1);

describe("the notification scan's prefilter", () => {
  test("lets through every recipient decideNotifications would notify, whatever the settings, flags and policies", () => {
    fc.assert(
      fc.property(
        switches,
        fc.record({
          flags: fc.integer({ min: 0, max: 255 }),
          direct: fc.boolean(),
          ownMessage: fc.boolean(),
          isBot: fc.boolean(),
          senderMuted: fc.boolean(),
          activeClient: fc.boolean(),
          channelMuted: fc.boolean(),
          topicPolicy: fc.integer({ min: 0, max: 3 }),
          followsAnotherTopic: fc.boolean(),
          email: override,
          push: override,
          wildcard: override,
        }),
        (settings, x) => {
          const facts: RecipientFacts = {
            userId: 7,
            flags: x.flags,
            isBot: x.isBot,
            settings,
            senderMuted: x.senderMuted,
            activeClient: x.activeClient,
            channel: x.direct
              ? undefined
              : { muted: x.channelMuted, topicPolicy: x.topicPolicy, emailNotify: asBool(x.email), pushNotify: asBool(x.push), wildcardNotify: asBool(x.wildcard) },
          };
          const d = decideNotifications({ senderId: x.ownMessage ? 7 : 8, direct: x.direct }, facts);
          const follows = x.topicPolicy === VISIBILITY.followed || x.followsAnotherTopic;
          const admitted = x.direct || (x.flags & MENTION_FLAGS) !== 0 || mayNotifyUnmentioned(settings, { email_notifications: x.email, push_notifications: x.push }, follows);
          if (d.email || d.push) expect(admitted).toBe(true);
        },
      ),
      { numRuns: 5000 },
    );
  });

  test("keeps a channel's unmentioned messages from reading any row when nobody there has channel or followed-topic notifications", () => {
    const quiet = userSettings({ settings: "{}", timezone: "" });
    expect(mayNotifyUnmentioned(quiet, { email_notifications: null, push_notifications: null }, false)).toBe(false);
    expect(mayNotifyUnmentioned(quiet, { email_notifications: null, push_notifications: 1 }, false)).toBe(true);
    expect(mayNotifyUnmentioned({ ...quiet, enable_stream_email_notifications: true }, { email_notifications: 0, push_notifications: null }, false)).toBe(false);
    // followed topics notify by default (Zulip's enable_followed_topic_*_notifications are on)
    expect(mayNotifyUnmentioned(quiet, { email_notifications: 0, push_notifications: 0 }, true)).toBe(true);
  });
});

describe("the prefiltered scan against a decision over every row", () => {
  let s: TestServer;
  let channel: number;
  const cast: CastName[] = ["iago", "hamlet", "othello", "cordelia", "polonius"];
  const topics = ["alpha", "Beta"];
  let messageIds: number[] = [];

  beforeAll(async () => {
    s = await startServer();
    channel = await createChannel(s, "iago", "Elsinore", { subscribers: ["hamlet", "othello", "cordelia", "polonius"] });
    const senders: CastName[] = ["iago", "hamlet", "othello"];
    for (const [i, topic] of [...topics, ...topics].entries()) messageIds.push(await sendStream(s, senders[i % 3]!, channel, topic, `message ${i} in ${topic}`));
    messageIds.push(await sendStream(s, "iago", channel, "alpha", "@**King Hamlet** look"));
    messageIds.push(await sendDm(s, "othello", ["hamlet", "cordelia"], "a group direct message"));
    messageIds.push(await sendDm(s, "cordelia", ["iago"], "a direct message"));
    // everybody has a browser, so every push decision shows as an outbox row
    for (const who of cast) {
      await s.app.db.run("INSERT INTO web_push_subscriptions (user_id, endpoint, p256dh, auth, created) VALUES (?, ?, 'k', 'a', 0)", [s.users[who].id, `https://push.invalid/${who}`]);
    }
  });
  afterAll(() => s.close());

  const ids = () => cast.map((c) => s.users[c].id);

  test("reads the mentions of the subscribers and nothing else when nobody is a candidate", async () => {
    expect(MENTION_FLAG_BITS).toBe(MENTION_FLAGS);
    // the one mention among the channel messages, with nobody a candidate
    const mention = messageIds[4]!;
    const rows = await listMaybeNotifiedRows(s.app.db, messageIds[0]!, messageIds[4]!, [], ids(), []);
    expect(rows).toEqual([{ user_id: s.users.hamlet.id, message_id: mention, flags: FLAG.mentioned }]);
  });

  /** What the scan wrote, as comparable lists. */
  async function written() {
    const emails = await s.app.db.all<{ user_id: number; message_id: number; trigger: string }>(
      "SELECT user_id, message_id, trigger FROM missed_message_emails ORDER BY user_id, message_id",
    );
    const pushes = await s.app.db.all<{ user_id: number; message_id: number; trigger: string }>(
      "SELECT user_id, message_id, trigger FROM web_push_outbox ORDER BY user_id, message_id",
    );
    return { emails, pushes };
  }

  /** The decision over every unread row, as the scan did before it had a prefilter (nobody has an active client here). */
  async function everyRow() {
    const emails: { user_id: number; message_id: number; trigger: string }[] = [];
    const pushes: { user_id: number; message_id: number; trigger: string }[] = [];
    const rows = await s.app.db.all<{ user_id: number; message_id: number; flags: number; sender_id: number; stream_id: number | null; topic: string }>(
      `SELECT um.user_id, um.message_id, um.flags, m.sender_id, m.stream_id, m.topic FROM user_messages um JOIN messages m ON m.id = um.message_id
       WHERE um.message_id IN (${messageIds.join(",")}) ORDER BY um.user_id, um.message_id`,
    );
    for (const r of rows) {
      const u = (await s.app.db.get<{ settings: string; is_bot: number; is_active: number }>("SELECT settings, is_bot, is_active FROM users WHERE id = ?", [r.user_id]))!;
      if (!u.is_active) continue;
      const muted = await s.app.db.get("SELECT 1 FROM muted_users WHERE user_id = ? AND muted_user_id = ?", [r.user_id, r.sender_id]);
      const facts: RecipientFacts = { userId: r.user_id, flags: r.flags, isBot: u.is_bot === 1, settings: userSettings({ settings: u.settings, timezone: "" }), senderMuted: !!muted, activeClient: false };
      if (r.stream_id !== null) {
        const sub = await s.app.db.get<{ is_muted: number; email_notifications: number | null; push_notifications: number | null; wildcard_mentions_notify: number | null }>(
          "SELECT is_muted, email_notifications, push_notifications, wildcard_mentions_notify FROM subscriptions WHERE user_id = ? AND stream_id = ? AND active = 1",
          [r.user_id, r.stream_id],
        );
        if (!sub) continue;
        const policy = await s.app.db.get<{ visibility_policy: number }>("SELECT visibility_policy FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic = ?", [r.user_id, r.stream_id, r.topic]);
        facts.channel = {
          muted: sub.is_muted === 1,
          topicPolicy: policy?.visibility_policy ?? 0,
          emailNotify: asBool(sub.email_notifications),
          pushNotify: asBool(sub.push_notifications),
          wildcardNotify: asBool(sub.wildcard_mentions_notify),
        };
      }
      const d = decideNotifications({ senderId: r.sender_id, direct: r.stream_id === null }, facts);
      if (d.email) emails.push({ user_id: r.user_id, message_id: r.message_id, trigger: d.email });
      if (d.push) pushes.push({ user_id: r.user_id, message_id: r.message_id, trigger: d.push });
    }
    return { emails, pushes };
  }

  const person = fc.record({
    settings: switches,
    subscribed: fc.boolean(),
    channelMuted: fc.boolean(),
    email: override,
    push: override,
    wildcard: override,
    policies: fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })),
    mutesIago: fc.boolean(),
  });
  // per row: read, mentioned, stream wildcard, topic wildcard, alert word
  const rowFlags = fc.array(fc.subarray([FLAG.read, FLAG.mentioned, FLAG.stream_wildcard_mentioned, FLAG.topic_wildcard_mentioned, FLAG.has_alert_word]), { minLength: 64, maxLength: 64 });

  test("writes exactly the emails and pushes that deciding every row writes, over random settings, flags and topic policies", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(person, { minLength: 5, maxLength: 5 }), rowFlags, async (people, flags) => {
        for (const [i, p] of people.entries()) {
          const id = ids()[i]!;
          await s.app.db.run("UPDATE users SET settings = ? WHERE id = ?", [JSON.stringify(p.settings), id]);
          await s.app.db.run("UPDATE subscriptions SET active = ?, is_muted = ?, email_notifications = ?, push_notifications = ?, wildcard_mentions_notify = ? WHERE user_id = ? AND stream_id = ?", [
            p.subscribed || i === 0 ? 1 : 0, // (the channel keeps one subscriber)
            p.channelMuted ? 1 : 0,
            p.email,
            p.push,
            p.wildcard,
            id,
            channel,
          ]);
          await s.app.db.run("DELETE FROM user_topics WHERE user_id = ?", [id]);
          for (const [t, policy] of p.policies.entries()) {
            if (policy) await s.app.db.run("INSERT INTO user_topics (user_id, stream_id, topic, visibility_policy, last_updated) VALUES (?, ?, ?, ?, 0)", [id, channel, topics[t]!, policy]);
          }
          await s.app.db.run("DELETE FROM muted_users WHERE user_id = ?", [id]);
          if (p.mutesIago && i !== 0) await s.app.db.run("INSERT INTO muted_users (user_id, muted_user_id, date_muted) VALUES (?, ?, 0)", [id, s.users.iago.id]);
        }
        const rows = await s.app.db.all<{ user_id: number; message_id: number }>(`SELECT user_id, message_id FROM user_messages WHERE message_id IN (${messageIds.join(",")}) ORDER BY user_id, message_id`);
        for (const [i, r] of rows.entries()) {
          const bits = (flags[i % flags.length] ?? []).reduce((a, b) => a | b, 0);
          await s.app.db.run("UPDATE user_messages SET flags = ? WHERE user_id = ? AND message_id = ?", [bits, r.user_id, r.message_id]);
        }
        await s.app.db.run("DELETE FROM missed_message_emails");
        await s.app.db.run("DELETE FROM web_push_outbox");
        await s.app.db.run("UPDATE notify_cursor SET last_message_id = ?", [messageIds[0]! - 1]);
        expect(await scanNewMessages(s.app)).toBe(messageIds.length);
        const expected = await everyRow();
        expect(await written()).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});

describe("the scan's candidates follow the settings as they change through the API", () => {
  let s: TestServer;
  let channel: number;
  beforeAll(async () => {
    s = await startServer();
    channel = await createChannel(s, "iago", "Dunsinane", { subscribers: ["hamlet", "othello"] });
    await scanNewMessages(s.app);
  });
  afterAll(() => s.close());

  const waiting = (who: CastName) =>
    s.app.db.all<{ message_id: number; trigger: string }>("SELECT message_id, trigger FROM missed_message_emails WHERE user_id = ? ORDER BY message_id", [s.users[who].id]);
  const property = (who: CastName, name: string, value: unknown) =>
    s.users[who].client.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: channel, property: name, value }] } as any).then((r) => r.success());

  test("a channel's email switch, a followed topic and the personal default each make the next message notify, and turning them off stops it", async () => {
    await sendStream(s, "iago", channel, "news", "nobody is told");
    await scanNewMessages(s.app);
    expect(await waiting("hamlet")).toEqual([]);

    await property("hamlet", "email_notifications", true);
    const channelEmail = await sendStream(s, "iago", channel, "news", "the channel's switch is on");
    await scanNewMessages(s.app);
    expect(await waiting("hamlet")).toEqual([{ message_id: channelEmail, trigger: "stream" }]);
    await property("hamlet", "email_notifications", false);
    await sendStream(s, "iago", channel, "news", "and off again");
    await scanNewMessages(s.app);
    expect((await waiting("hamlet")).map((r) => r.message_id)).toEqual([channelEmail]);

    (await s.users.hamlet.client.post("/user_topics", { stream_id: channel, topic: "plans", visibility_policy: 3 } as any)).success();
    const followed = await sendStream(s, "iago", channel, "Plans", "a followed topic");
    await sendStream(s, "iago", channel, "news", "another topic of the channel");
    await scanNewMessages(s.app);
    expect((await waiting("hamlet")).slice(1)).toEqual([{ message_id: followed, trigger: "followed_topic" }]);

    (await s.users.othello.client.patch("/settings", { enable_stream_email_notifications: true } as any)).success();
    const byDefault = await sendStream(s, "iago", channel, "news", "othello's default for channels");
    await scanNewMessages(s.app);
    expect(await waiting("othello")).toEqual([{ message_id: byDefault, trigger: "stream" }]);
  });
});
