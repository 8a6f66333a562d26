/** Who is told of a new message, and how (assets/app/notify/decide.ts): Zulip's rules over the state and the event. */
import { describe, expect, test } from "bun:test";
import { alertFor, notificationText, plainText } from "../../assets/app/notify/decide";
import type { Message, State } from "../../assets/app/state/types";
import { sampleMessage, sampleState } from "./fixtures";

const message = (over: Partial<Message> = {}) => sampleMessage(over);

const dm = (over: Partial<Message> = {}) => message({ type: "private", stream_id: undefined, subject: "", display_recipient: [{ id: 4, email: "", full_name: "" }, { id: 5, email: "", full_name: "" }], ...over });
const event = (m: Message, flags: string[] = []) => ({ type: "message", message: m, flags });
const settings = (patch: Partial<State["settings"]>) => (s: State): State => ({ ...s, settings: { ...s.settings, ...patch } });
const topicPolicy = (streamId: number, topic: string, policy: number) => (s: State): State => ({ ...s, user_topics: { ...s.user_topics, [`${streamId}:${topic}`]: { stream_id: streamId, topic, policy } } });
const sub = (streamId: number, patch: Partial<State["subscriptions"][number]>) => (s: State): State => ({ ...s, subscriptions: { ...s.subscriptions, [streamId]: { ...s.subscriptions[streamId]!, ...patch } } });
const state = (...changes: ((s: State) => State)[]) => changes.reduce((s, f) => f(s), sampleState());
const HIDDEN = false;

describe("when the person is told", () => {
  test("a direct message: a notification and a sound, only while the page is not in front", () => {
    expect(alertFor(state(), event(dm()), HIDDEN)).toEqual({ desktop: true, sound: true });
    expect(alertFor(state(), event(dm()), true)).toBeNull();
  });

  test("never their own message, one already read, one from someone they muted, or other events", () => {
    expect(alertFor(state(), event(dm({ sender_id: 4 })), HIDDEN)).toBeNull();
    expect(alertFor(state(), event(dm(), ["read"]), HIDDEN)).toBeNull();
    expect(alertFor({ ...state(), muted_users: [5] }, event(dm()), HIDDEN)).toBeNull();
    expect(alertFor(state(), { type: "typing" }, HIDDEN)).toBeNull();
  });

  test("a channel message only when it mentions them, or its channel or topic asks for every message", () => {
    expect(alertFor(state(), event(message()), HIDDEN)).toBeNull();
    expect(alertFor(state(), event(message(), ["mentioned"]), HIDDEN)).toEqual({ desktop: true, sound: true });
    expect(alertFor(state(), event(message(), ["has_alert_word"]), HIDDEN)).toEqual({ desktop: true, sound: true });
    expect(alertFor(state(settings({ enable_stream_desktop_notifications: true })), event(message()), HIDDEN)).toEqual({ desktop: true, sound: false });
    expect(alertFor(state(sub(12, { audible_notifications: true })), event(message()), HIDDEN)).toEqual({ desktop: false, sound: true });
    // a channel's own "no" wins over the general "yes"
    expect(alertFor(state(settings({ enable_stream_desktop_notifications: true }), sub(12, { desktop_notifications: false })), event(message()), HIDDEN)).toBeNull();
  });

  test("wildcard mentions as wildcard_mentions_notify says, per channel too", () => {
    const all = event(message(), ["stream_wildcard_mentioned"]);
    expect(alertFor(state(), all, HIDDEN)).toEqual({ desktop: true, sound: true });
    expect(alertFor(state(settings({ wildcard_mentions_notify: false })), all, HIDDEN)).toBeNull();
    expect(alertFor(state(settings({ wildcard_mentions_notify: false }), sub(12, { wildcard_mentions_notify: true })), all, HIDDEN)).toEqual({ desktop: true, sound: true });
    expect(alertFor(state(sub(12, { wildcard_mentions_notify: false })), event(message(), ["topic_wildcard_mentioned"]), HIDDEN)).toBeNull();
  });

  test("followed topics by their own settings, even in a muted channel", () => {
    const followed = topicPolicy(13, "plans", 3);
    const inMuted = event(message({ stream_id: 13, subject: "plans" }));
    expect(alertFor(state(followed), inMuted, HIDDEN)).toEqual({ desktop: true, sound: true });
    expect(alertFor(state(followed, settings({ enable_followed_topic_audible_notifications: false })), inMuted, HIDDEN)).toEqual({ desktop: true, sound: false });
    expect(alertFor(state(followed, settings({ enable_followed_topic_desktop_notifications: false, enable_followed_topic_audible_notifications: false })), inMuted, HIDDEN)).toBeNull();
    // a wildcard mention in a followed topic, by the followed-topic wildcard setting
    const quiet = settings({ wildcard_mentions_notify: false, enable_followed_topic_desktop_notifications: false, enable_followed_topic_audible_notifications: false });
    expect(alertFor(state(topicPolicy(12, "lunch", 3), quiet), event(message(), ["stream_wildcard_mentioned"]), HIDDEN)).toEqual({ desktop: true, sound: true });
    expect(alertFor(state(topicPolicy(12, "lunch", 3), quiet, settings({ enable_followed_topic_wildcard_mentions_notify: false })), event(message(), ["stream_wildcard_mentioned"]), HIDDEN)).toBeNull();
  });

  test("muted topics and channels stay quiet, unless the message names them (a wildcard does not)", () => {
    const everything = settings({ enable_stream_desktop_notifications: true, enable_stream_audible_notifications: true });
    expect(alertFor(state(everything, topicPolicy(12, "lunch", 1)), event(message()), HIDDEN)).toBeNull();
    expect(alertFor(state(topicPolicy(12, "lunch", 1)), event(message(), ["stream_wildcard_mentioned"]), HIDDEN)).toBeNull();
    expect(alertFor(state(topicPolicy(12, "lunch", 1)), event(message(), ["mentioned"]), HIDDEN)).toEqual({ desktop: true, sound: true });
    // channel 13 is muted; an unmuted topic there may alert
    expect(alertFor(state(everything), event(message({ stream_id: 13 })), HIDDEN)).toBeNull();
    expect(alertFor(state(everything, topicPolicy(13, "lunch", 2)), event(message({ stream_id: 13 })), HIDDEN)).toEqual({ desktop: true, sound: true });
  });

  test("their settings: desktop notifications and sounds apart; the sound 'none' silences everything", () => {
    expect(alertFor(state(settings({ enable_desktop_notifications: false })), event(dm()), HIDDEN)).toEqual({ desktop: false, sound: true });
    expect(alertFor(state(settings({ enable_sounds: false })), event(dm()), HIDDEN)).toEqual({ desktop: true, sound: false });
    expect(alertFor(state(settings({ notification_sound: "none" }), sub(12, { audible_notifications: true })), event(message(), ["mentioned"]), HIDDEN)).toEqual({ desktop: true, sound: false });
    expect(alertFor(state(settings({ enable_desktop_notifications: false, enable_sounds: false })), event(dm()), HIDDEN)).toBeNull();
  });
});

describe("what a notification says", () => {
  test("the sender, where it was sent, and the text (shortened)", () => {
    expect(notificationText(state(), message({ content: "<p>Meet me at <strong>noon</strong> &amp; bring <code>x &lt; y</code></p>" }))).toEqual({
      title: "Othello, the Moor of Venice (#general › lunch)",
      body: "Meet me at noon & bring x < y",
      tag: "42",
    });
    const long = notificationText(state(), dm({ content: `<p>${"word ".repeat(60)}</p>` })).body;
    expect(long.length).toBe(150);
    expect(long.endsWith("…")).toBe(true);
    expect(notificationText(state(), message({ subject: "" })).title).toBe("Othello, the Moor of Venice (#general › general chat)");
  });

  test("a group conversation names the others; a direct message's text hides when the person says so", () => {
    const group = dm({ display_recipient: [4, 5, 6].map((id) => ({ id, email: "", full_name: "" })) });
    expect(notificationText(state(), group).title).toBe("Othello, the Moor of Venice (to you and Cordelia)");
    expect(notificationText(state(settings({ pm_content_in_desktop_notifications: false })), dm()).body).toBe("New direct message from Othello, the Moor of Venice");
  });

  test("plain text from rendered HTML: tags out, entities decoded, paragraphs and lines apart", () => {
    expect(plainText("<p>one<br>two</p><p>three&#39;s &#x1F600; &nbsp;x</p>")).toBe("one two three's 😀 x");
  });
});
