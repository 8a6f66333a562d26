import { describe, expect, test } from "bun:test";
import { decideNotifications, type RecipientFacts } from "../../src/notify/decide";
import { FLAG } from "../../src/domain/flags";
import { USER_SETTING_DEFAULTS } from "../../src/domain/user-settings";

const SENDER = 1;
const ME = 2;
const settings = (changes: Record<string, unknown> = {}) => ({ ...USER_SETTING_DEFAULTS, ...changes }) as unknown as RecipientFacts["settings"];
const channel = (c: Partial<NonNullable<RecipientFacts["channel"]>> = {}) => ({ muted: false, topicPolicy: 0, emailNotify: null, pushNotify: null, wildcardNotify: null, ...c });
const facts = (f: Partial<RecipientFacts> = {}): RecipientFacts => ({ userId: ME, flags: 0, isBot: false, settings: settings(), senderMuted: false, activeClient: false, ...f });
const dm = { senderId: SENDER, direct: true };
const stream = { senderId: SENDER, direct: false };

describe("decideNotifications (Zulip's UserMessageNotificationsData)", () => {
  test("a direct message to someone away is an email and a push", () => {
    expect(decideNotifications(dm, facts())).toEqual({ email: "direct_message", push: "direct_message" });
  });

  test("with an active client there is no email, and a push only with enable_online_push_notifications", () => {
    expect(decideNotifications(dm, facts({ activeClient: true }))).toEqual({ email: null, push: "direct_message" });
    expect(decideNotifications(dm, facts({ activeClient: true, settings: settings({ enable_online_push_notifications: false }) }))).toEqual({ email: null, push: null });
  });

  test("nothing for one's own message, a bot, a muted sender or a message already read", () => {
    const none = { email: null, push: null };
    expect(decideNotifications({ senderId: ME, direct: true }, facts())).toEqual(none);
    expect(decideNotifications(dm, facts({ isBot: true }))).toEqual(none);
    expect(decideNotifications(dm, facts({ senderMuted: true }))).toEqual(none);
    expect(decideNotifications(dm, facts({ flags: FLAG.read }))).toEqual(none);
  });

  test("mentions notify; muted topics and channels do not, unless the topic is unmuted or followed", () => {
    const mentioned = facts({ flags: FLAG.mentioned, channel: channel() });
    expect(decideNotifications(stream, mentioned)).toEqual({ email: "mentioned", push: "mentioned" });
    expect(decideNotifications(stream, { ...mentioned, channel: channel({ topicPolicy: 1 }) })).toEqual({ email: null, push: null });
    expect(decideNotifications(stream, { ...mentioned, channel: channel({ muted: true }) })).toEqual({ email: null, push: null });
    expect(decideNotifications(stream, { ...mentioned, channel: channel({ muted: true, topicPolicy: 2 }) })).toEqual({ email: "mentioned", push: "mentioned" });
  });

  test("the offline switches turn off their transport; offline emails off stops every email", () => {
    const mentioned = facts({ flags: FLAG.mentioned, channel: channel({ topicPolicy: 3 }) });
    expect(decideNotifications(stream, { ...mentioned, settings: settings({ enable_offline_push_notifications: false }) })).toEqual({ email: "mentioned", push: "followed_topic" });
    expect(decideNotifications(stream, { ...mentioned, settings: settings({ enable_offline_email_notifications: false }) })).toEqual({ email: null, push: "mentioned" });
    expect(decideNotifications(dm, facts({ settings: settings({ enable_offline_push_notifications: false }) }))).toEqual({ email: "direct_message", push: null });
  });

  test("wildcard mentions follow wildcard_mentions_notify, the channel's override, or a followed topic's switch", () => {
    const all = facts({ flags: FLAG.stream_wildcard_mentioned, channel: channel() });
    expect(decideNotifications(stream, all)).toEqual({ email: "stream_wildcard_mentioned", push: "stream_wildcard_mentioned" });
    const off = { ...all, settings: settings({ wildcard_mentions_notify: false }) };
    expect(decideNotifications(stream, off)).toEqual({ email: null, push: null });
    expect(decideNotifications(stream, { ...off, channel: channel({ wildcardNotify: true }) }).email).toBe("stream_wildcard_mentioned");
    expect(decideNotifications(stream, { ...all, channel: channel({ wildcardNotify: false }) }).email).toBe(null);
    expect(decideNotifications(stream, { ...off, channel: channel({ topicPolicy: 3 }), settings: settings({ wildcard_mentions_notify: false, enable_followed_topic_email_notifications: false }) }).email).toBe("stream_wildcard_mentioned");
    expect(decideNotifications(stream, facts({ flags: FLAG.topic_wildcard_mentioned, channel: channel() })).email).toBe("topic_wildcard_mentioned");
  });

  test("followed topics and channel notifications each have their own switches, and the channel's setting overrides the personal one", () => {
    const followed = facts({ channel: channel({ topicPolicy: 3 }) });
    expect(decideNotifications(stream, followed)).toEqual({ email: "followed_topic", push: "followed_topic" });
    expect(decideNotifications(stream, { ...followed, settings: settings({ enable_followed_topic_email_notifications: false }) })).toEqual({ email: null, push: "followed_topic" });
    const plain = facts({ channel: channel() });
    expect(decideNotifications(stream, plain)).toEqual({ email: null, push: null });
    expect(decideNotifications(stream, { ...plain, settings: settings({ enable_stream_email_notifications: true }) })).toEqual({ email: "stream", push: null });
    expect(decideNotifications(stream, { ...plain, channel: channel({ pushNotify: true }) })).toEqual({ email: null, push: "stream" });
    expect(decideNotifications(stream, { ...plain, settings: settings({ enable_stream_email_notifications: true }), channel: channel({ emailNotify: false }) })).toEqual({ email: null, push: null });
  });
});
