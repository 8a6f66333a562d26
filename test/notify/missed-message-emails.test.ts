import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startServer, type CastName, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { registerQueue, sendDm, sendStream } from "../helpers/messages";
import { scanNewMessages } from "../../src/notify/scan";
import { sendMissedMessageEmails } from "../../src/notify/missed-email";
import type { OutboxRow } from "../../src/store/outbox";

let s: TestServer;
let channel: number;
let mark = 0;

beforeAll(async () => {
  s = await startServer();
  channel = await createChannel(s, "iago", "Verona", { subscribers: ["hamlet", "othello", "cordelia"] });
});
afterAll(() => s.close());

/** Everything of earlier tests is sent and forgotten: each test sees only its own emails. */
beforeEach(async () => {
  await scanNewMessages(s.app);
  s.clock.advance(8 * 24 * 3600_000);
  await sendMissedMessageEmails(s.app);
  mark = (await s.app.db.get<{ m: number }>("SELECT COALESCE(MAX(id), 0) AS m FROM outbox_emails"))!.m;
});

const emailsTo = (who: CastName) => s.app.db.all<OutboxRow>("SELECT * FROM outbox_emails WHERE id > ? AND to_address = ? ORDER BY id", [mark, s.users[who].email]);
const waiting = (who: CastName) => s.app.db.all<{ message_id: number; trigger: string }>("SELECT message_id, trigger FROM missed_message_emails WHERE user_id = ? ORDER BY message_id", [s.users[who].id]);

/** The timer loop's two steps: the scan right after the send, the emails after `secs`. */
async function afterSecs(secs: number) {
  await scanNewMessages(s.app);
  s.clock.advance(secs * 1000);
  await sendMissedMessageEmails(s.app);
}

const settings = (who: CastName, changes: Record<string, unknown>) => s.users[who].client.patch("/settings", changes as any).then((r) => r.success());

describe("missed-message emails", () => {
  test("a direct message to someone with no active client is emailed after their batching period, with the sender, the text, a link and the footer", async () => {
    const id = await sendDm(s, "othello", ["hamlet"], "Where is the **handkerchief**?");
    await scanNewMessages(s.app);
    expect(await waiting("hamlet")).toEqual([{ message_id: id, trigger: "direct_message" }]);
    // the default batching period is 120 seconds: nothing yet at 119
    await afterSecs(119);
    expect(await emailsTo("hamlet")).toEqual([]);
    await afterSecs(2);
    const [mail, ...more] = await emailsTo("hamlet");
    expect(more).toEqual([]);
    expect(mail!.subject).toBe("DMs with Othello, the Moor of Venice");
    expect(mail!.body).toContain("Othello, the Moor of Venice sent you a direct message.");
    expect(mail!.body).toContain("Where is the **handkerchief**?");
    expect(mail!.body).toContain(`Open the conversation: http://parley.test/#narrow/dm/${s.users.othello.id}-Othello.2C-the-Moor-of-Venice`);
    expect(mail!.body).toContain("http://parley.test/#settings/notifications");
    expect(mail!.html).toContain("<strong>handkerchief</strong>");
    expect(mail!.html).toContain('<img src="https://secure.gravatar.com/avatar/');
    const headers = JSON.parse(mail!.headers);
    expect(headers["List-Unsubscribe"]).toMatch(new RegExp(`^<http://parley\\.test/accounts/unsubscribe/missed_messages/${s.users.hamlet.id}\\.[\\w-]{43}>$`));
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail!.message_id).toBe(`<parley-${mail!.id}-${Math.floor(mail!.created)}@parley.localhost>`);
    expect(await waiting("hamlet")).toEqual([]);
    // nothing twice
    await afterSecs(600);
    expect((await emailsTo("hamlet")).length).toBe(1);
  });

  test("what arrives within the batching period goes out as one email per conversation, with the topic's recent context", async () => {
    await sendStream(s, "cordelia", channel, "balcony", "Some context first");
    await afterSecs(10);
    await sendDm(s, "othello", ["hamlet"], "first");
    await sendDm(s, "othello", ["hamlet"], "second");
    await sendStream(s, "iago", channel, "balcony", "@**King Hamlet** look here");
    await afterSecs(30);
    await sendStream(s, "cordelia", channel, "balcony", "and @**King Hamlet** again");
    await afterSecs(100);
    const mails = await emailsTo("hamlet");
    expect(mails.map((m) => m.subject).sort()).toEqual(["#Verona > balcony", "DMs with Othello, the Moor of Venice"]);
    const dm = mails.find((m) => m.subject.startsWith("DMs"))!;
    expect(dm.body).toContain("sent you 2 direct messages");
    expect(dm.body.indexOf("first")).toBeLessThan(dm.body.indexOf("second"));
    const topic = mails.find((m) => m.subject.startsWith("#"))!;
    expect(topic.body).toContain("Iago, Cordelia, Lear's daughter mentioned you in #Verona > balcony.");
    expect(topic.body).toContain("Some context first");
    expect(topic.body.indexOf("Some context first")).toBeLessThan(topic.body.indexOf("look here"));
    expect(topic.body).toContain(`http://parley.test/#narrow/channel/${channel}-Verona/topic/balcony`);
  });

  test("a message read before the email is due is not emailed", async () => {
    const id = await sendDm(s, "othello", ["hamlet"], "read me in the app");
    await scanNewMessages(s.app);
    (await s.users.hamlet.client.post("/messages/flags", { messages: JSON.stringify([id]), op: "add", flag: "read" } as any)).success();
    await afterSecs(121);
    expect(await emailsTo("hamlet")).toEqual([]);
    expect(await waiting("hamlet")).toEqual([]);
  });

  test("one's own messages, muted senders, muted topics and muted channels send nothing", async () => {
    // (a mention would follow the topic and so unmute it)
    await settings("hamlet", { automatically_follow_topics_where_mentioned: false });
    await settings("othello", { automatically_follow_topics_where_mentioned: false });
    await sendDm(s, "hamlet", ["hamlet"], "a note to myself");
    await sendStream(s, "hamlet", channel, "own", "@**King Hamlet** talking to myself");
    (await s.users.cordelia.client.post(`/users/me/muted_users/${s.users.othello.id}`)).success();
    await sendDm(s, "othello", ["cordelia"], "you muted me");
    (await s.users.hamlet.client.post("/user_topics", { stream_id: channel, topic: "muted topic", visibility_policy: 1 } as any)).success();
    await sendStream(s, "iago", channel, "muted topic", "@**King Hamlet** in a muted topic");
    const muted = await createChannel(s, "iago", "Muted place", { subscribers: ["othello"] });
    (await s.users.othello.client.post("/users/me/subscriptions/properties", { subscription_data: JSON.stringify([{ stream_id: muted, property: "is_muted", value: true }]) } as any)).success();
    await sendStream(s, "iago", muted, "t", "@**Othello, the Moor of Venice** in a muted channel");
    await scanNewMessages(s.app);
    expect(await waiting("hamlet")).toEqual([]);
    expect(await waiting("othello")).toEqual([]);
    expect(await waiting("cordelia")).toEqual([]);
    // a muted topic of a muted channel that is followed does notify (the topic's policy wins)
    (await s.users.othello.client.post("/user_topics", { stream_id: muted, topic: "followed", visibility_policy: 3 } as any)).success();
    const followed = await sendStream(s, "iago", muted, "followed", "news in a followed topic");
    await scanNewMessages(s.app);
    expect(await waiting("othello")).toEqual([{ message_id: followed, trigger: "followed_topic" }]);
    await settings("hamlet", { automatically_follow_topics_where_mentioned: true });
    await settings("othello", { automatically_follow_topics_where_mentioned: true });
    (await s.users.cordelia.client.delete(`/users/me/muted_users/${s.users.othello.id}`)).success();
  });

  test("each switch of PATCH /settings turns its kind off: offline emails, followed topics, wildcard mentions, and channel emails turn on", async () => {
    await settings("hamlet", { enable_offline_email_notifications: false });
    await sendDm(s, "othello", ["hamlet"], "nobody reads this by email");
    await sendStream(s, "iago", channel, "switches", "@**King Hamlet** neither this");
    await scanNewMessages(s.app);
    expect(await waiting("hamlet")).toEqual([]);
    await settings("hamlet", { enable_offline_email_notifications: true });

    (await s.users.hamlet.client.post("/user_topics", { stream_id: channel, topic: "followed here", visibility_policy: 3 } as any)).success();
    await settings("hamlet", { enable_followed_topic_email_notifications: false });
    await sendStream(s, "iago", channel, "followed here", "followed but switched off");
    await scanNewMessages(s.app);
    expect(await waiting("hamlet")).toEqual([]);
    await settings("hamlet", { enable_followed_topic_email_notifications: true });
    const followed = await sendStream(s, "iago", channel, "followed here", "followed and on");
    await scanNewMessages(s.app);
    expect(await waiting("hamlet")).toEqual([{ message_id: followed, trigger: "followed_topic" }]);
    await afterSecs(121);

    await settings("cordelia", { wildcard_mentions_notify: false });
    const wildcard = await sendStream(s, "iago", channel, "all hands", "@**all** meeting now");
    await scanNewMessages(s.app);
    expect(await waiting("cordelia")).toEqual([]);
    expect(await waiting("othello")).toEqual([{ message_id: wildcard, trigger: "stream_wildcard_mentioned" }]);
    await afterSecs(121);

    // channel email notifications: off by default, on by the personal setting
    const plain = await sendStream(s, "iago", channel, "plain", "an ordinary message");
    await scanNewMessages(s.app);
    expect(await waiting("othello")).toEqual([]);
    await settings("othello", { enable_stream_email_notifications: true });
    const plain2 = await sendStream(s, "iago", channel, "plain", "another ordinary message");
    await scanNewMessages(s.app);
    expect(await waiting("othello")).toEqual([{ message_id: plain2, trigger: "stream" }]);
    expect(plain).toBeLessThan(plain2);
    await settings("othello", { enable_stream_email_notifications: false });
    await settings("cordelia", { wildcard_mentions_notify: true });
  });

  test("a group mention reaches the group's members and the email names the group", async () => {
    const group = (await s.users.iago.client.post("/user_groups/create", { name: "actors", description: "on stage", members: JSON.stringify([s.users.hamlet.id]) } as any)).success();
    await sendStream(s, "iago", channel, "casting", "@*actors* rehearsal at noon");
    await afterSecs(121);
    const [mail] = await emailsTo("hamlet");
    expect(mail!.body).toContain("Iago mentioned @actors in #Verona > casting.");
    expect(group.group_id).toBeGreaterThan(0);
  });

  test("someone with an active client (a queue in use and presence active lately) gets no email; once away, they do", async () => {
    await registerQueue(s, "hamlet");
    (await s.users.hamlet.client.post("/users/me/presence", { status: "active" } as any)).success();
    await sendDm(s, "othello", ["hamlet"], "you are here");
    await scanNewMessages(s.app);
    expect(await waiting("hamlet")).toEqual([]);
    // presence goes stale after 140 seconds without a report
    s.clock.advance(141_000);
    const later = await sendDm(s, "othello", ["hamlet"], "you left");
    await scanNewMessages(s.app);
    expect(await waiting("hamlet")).toEqual([{ message_id: later, trigger: "direct_message" }]);
  });

  test("the batching period is the person's email_notifications_batching_period_seconds", async () => {
    await settings("cordelia", { email_notifications_batching_period_seconds: 600 });
    await sendDm(s, "othello", ["cordelia"], "slow mail");
    await afterSecs(300);
    expect(await emailsTo("cordelia")).toEqual([]);
    await afterSecs(301);
    expect((await emailsTo("cordelia")).map((m) => m.subject)).toEqual(["DMs with Othello, the Moor of Venice"]);
    await settings("cordelia", { email_notifications_batching_period_seconds: 120 });
  });

  test("group direct messages name the others", async () => {
    await sendDm(s, "othello", ["hamlet", "cordelia"], "all three of us");
    await afterSecs(121);
    const [mail] = await emailsTo("hamlet");
    expect(mail!.subject).toBe("Group DMs with Othello, the Moor of Venice and Cordelia, Lear's daughter");
    const ids = [s.users.othello.id, s.users.cordelia.id].sort((a, b) => a - b).join(",");
    expect(mail!.body).toContain(`#narrow/dm/${ids}-group`);
  });

  test("with the organization's message_content_allowed_in_email_notifications off, the email leaves out the text and the senders", async () => {
    (await s.users.desdemona.client.patch("/realm", { message_content_allowed_in_email_notifications: false } as any)).success();
    try {
      await sendDm(s, "othello", ["hamlet"], "secret plans");
      await afterSecs(121);
      const [mail] = await emailsTo("hamlet");
      expect(mail!.subject).toBe("New messages in Zulip Dev");
      expect(mail!.body).not.toContain("secret plans");
      expect(mail!.html).not.toContain("secret plans");
      expect(mail!.body).not.toContain("Othello, the Moor of Venice");
      expect(mail!.body).toContain("Someone sent you a direct message.");
      expect(mail!.body).toContain("Open the conversation: http://parley.test/#narrow/dm/");
    } finally {
      (await s.users.desdemona.client.patch("/realm", { message_content_allowed_in_email_notifications: true } as any)).success();
    }
    // the person's own message_content_in_email_notifications does the same
    await settings("hamlet", { message_content_in_email_notifications: false });
    await sendDm(s, "othello", ["hamlet"], "more secrets");
    await afterSecs(121);
    expect((await emailsTo("hamlet")).some((m) => m.body.includes("more secrets"))).toBe(false);
    await settings("hamlet", { message_content_in_email_notifications: true });
  });

  test("a message older than an hour when the scan reaches it (imported history) notifies nobody", async () => {
    const id = await sendDm(s, "othello", ["hamlet"], "from long ago");
    await s.app.db.run("UPDATE messages SET date_sent = date_sent - 7200 WHERE id = ?", [id]);
    await scanNewMessages(s.app);
    expect(await waiting("hamlet")).toEqual([]);
    const fresh = await sendDm(s, "othello", ["hamlet"], "from now");
    await scanNewMessages(s.app);
    expect(await waiting("hamlet")).toEqual([{ message_id: fresh, trigger: "direct_message" }]);
  });

  test("turning offline emails off while an email waits cancels it", async () => {
    await sendDm(s, "othello", ["hamlet"], "will not be sent");
    await scanNewMessages(s.app);
    await settings("hamlet", { enable_offline_email_notifications: false });
    await afterSecs(121);
    expect(await emailsTo("hamlet")).toEqual([]);
    expect(await waiting("hamlet")).toEqual([]);
    await settings("hamlet", { enable_offline_email_notifications: true });
  });
});

describe("one-click unsubscribe", () => {
  const page = (path: string, init?: RequestInit) => s.server.handle(new Request(`http://parley.test${path}`, init));

  test("the link's GET asks first; a POST (as a mail client's one-click) turns missed-message emails off, with the settings events", async () => {
    await sendDm(s, "othello", ["hamlet"], "unsubscribe me");
    await afterSecs(121);
    const [mail] = await emailsTo("hamlet");
    const url = new URL(/<(.+)>/.exec(JSON.parse(mail!.headers)["List-Unsubscribe"])![1]!);
    const shown = await page(url.pathname);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('<form method="post"');
    expect(JSON.parse((await s.app.db.get<{ settings: string }>("SELECT settings FROM users WHERE id = ?", [s.users.hamlet.id]))!.settings).enable_offline_email_notifications).toBeUndefined();
    const events = await s.captureEvents(async () => {
      const done = await page(url.pathname, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
      expect(done.status).toBe(200);
      expect(await done.text()).toContain("gets no more missed-message emails");
    });
    expect(events.of("hamlet")).toContainEqual({ type: "user_settings", op: "update", property: "enable_offline_email_notifications", value: false });
    expect(JSON.parse((await s.app.db.get<{ settings: string }>("SELECT settings FROM users WHERE id = ?", [s.users.hamlet.id]))!.settings).enable_offline_email_notifications).toBe(false);
    await sendDm(s, "othello", ["hamlet"], "after unsubscribing");
    await scanNewMessages(s.app);
    expect(await waiting("hamlet")).toEqual([]);
    await settings("hamlet", { enable_offline_email_notifications: true });
  });

  test("a forged or altered token is refused and changes nothing", async () => {
    const forged = `/accounts/unsubscribe/missed_messages/${s.users.othello.id}.${"A".repeat(43)}`;
    expect((await page(forged)).status).toBe(404);
    expect((await page(forged, { method: "POST" })).status).toBe(404);
    expect((await page("/accounts/unsubscribe/missed_messages/nonsense", { method: "POST" })).status).toBe(404);
    expect(JSON.parse((await s.app.db.get<{ settings: string }>("SELECT settings FROM users WHERE id = ?", [s.users.othello.id]))!.settings).enable_offline_email_notifications).toBeUndefined();
  });
});
