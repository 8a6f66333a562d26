/**
 * Acting on messages, the pure parts: Zulip's quote-and-reply text, links to messages, resolved-topic
 * names, and what the person may do to a message under the organization's and channels' settings.
 */
import { describe, expect, test } from "bun:test";
import { messageUrl, parseHash } from "../../assets/app/nav/hash";
import { quoteText, unusedFence, withQuote } from "../../assets/app/compose/quote";
import { canDelete, canEditContent, canEditTopic, canMoveChannel, canMoveOut, canMoveWithin, canResolve, canViewHistory, holds } from "../../assets/app/state/permissions";
import { applyEvent } from "../../assets/app/state/apply-event";
import { topicsFetched } from "../../assets/app/state/fetched";
import type { Message, State } from "../../assets/app/state/types";
import { sampleMessage, sampleState } from "./fixtures";

const NOW = 1_700_000_000;

const message = (over: Partial<Message> = {}) =>
  sampleMessage({ sender_id: 4, sender_full_name: "King Hamlet", sender_email: "4@example.com", timestamp: NOW - 60, ...over });

/** The sample state as someone else (7 guest, 8 administrator, 9 moderator, 5 member). */
const as = (me: number, change: (s: State) => State = (s) => s): State => change({ ...sampleState(), me });
const withRealm = (patch: Partial<State["realm"]>) => (s: State): State => ({ ...s, realm: { ...s.realm, ...patch } });

describe("quote and reply", () => {
  test("the quote is Zulip's: a silent mention, a link, and the Markdown in a quote fence", () => {
    expect(quoteText({ name: "Iago", id: 5 }, "https://chat.example/#narrow/channel/12-general/topic/lunch/near/42", "Honest **Iago**")).toBe(
      "@_**Iago|5** [said](https://chat.example/#narrow/channel/12-general/topic/lunch/near/42):\n```quote\nHonest **Iago**\n```",
    );
  });

  test("the fence is longer than any fence inside the quoted text", () => {
    expect(unusedFence("plain")).toBe("```");
    expect(unusedFence("```js\ncode\n```")).toBe("````");
    expect(unusedFence("text\n   `````\nx")).toBe("``````");
    // four spaces in is code, not a fence; backticks inside a line are not fences
    expect(unusedFence("    ````\nsay `````")).toBe("```");
    expect(quoteText({ name: "A", id: 1 }, "L", "```\nx\n```")).toBe("@_**A|1** [said](L):\n````quote\n```\nx\n```\n````");
  });

  test("a quote goes below what the compose box held, with a line to write on", () => {
    expect(withQuote("", "Q")).toBe("Q\n");
    expect(withQuote("My answer  \n\n", "Q")).toBe("My answer\n\nQ\n");
  });
});

describe("links to messages", () => {
  const state = sampleState();
  test("a channel message's link is its topic's with /near/ID, absolute", () => {
    expect(messageUrl(state, message({ subject: "lunch (v1.0)" }), "https://chat.example")).toBe("https://chat.example/#narrow/channel/12-general/topic/lunch.20.28v1.2E0.29/near/42");
  });

  test("a direct message's link names everyone in it, as Zulip's permalinks do", () => {
    const dm = (ids: number[]) => message({ type: "private", stream_id: undefined, subject: "", display_recipient: ids.map((id) => ({ id, email: "", full_name: "" })) });
    expect(messageUrl(state, dm([5, 4]), "http://h")).toBe("http://h/#narrow/dm/4,5-dm/near/42");
    expect(messageUrl(state, dm([4, 6, 5]), "http://h")).toBe("http://h/#narrow/dm/4,5,6-group/near/42");
    // and the app opens them at that message
    expect(parseHash(state, "#narrow/dm/4,5-dm/near/42")).toEqual({ kind: "narrow", narrow: { kind: "dm", key: "5" }, near: 42 });
  });
});

describe("what the person may do to a message", () => {
  test("their own message's text within the organization's limit, while editing is allowed", () => {
    expect(canEditContent(as(4), message(), NOW)).toBe(true);
    expect(canEditContent(as(4), message({ timestamp: NOW - 601 }), NOW)).toBe(false);
    expect(canEditContent(as(4, withRealm({ message_content_edit_limit_seconds: null })), message({ timestamp: NOW - 999_999 }), NOW)).toBe(true);
    expect(canEditContent(as(4, withRealm({ allow_message_editing: false })), message(), NOW)).toBe(false);
    // not someone else's, not even an administrator's; not one still being sent; not in an archived channel
    expect(canEditContent(as(8), message(), NOW)).toBe(false);
    expect(canEditContent(as(4), message({ local_id: "1.1" }), NOW)).toBe(false);
    expect(canEditContent(as(4, (s) => ({ ...s, channels: { ...s.channels, 12: { ...s.channels[12]!, is_archived: true } } })), message(), NOW)).toBe(false);
  });

  test("moving between topics: by the organization's group (everyone here), within its time limit unless a moderator", () => {
    expect(canEditTopic(as(5), message(), NOW)).toBe(true);
    expect(canEditTopic(as(5), message({ timestamp: NOW - 604_801 }), NOW)).toBe(false);
    expect(canEditTopic(as(9), message({ timestamp: NOW - 604_801 }), NOW)).toBe(true);
    const onlyAdmins = withRealm({ can_move_messages_between_topics_group: 11 });
    expect(canEditTopic(as(5, onlyAdmins), message(), NOW)).toBe(false);
    expect(canEditTopic(as(8, onlyAdmins), message(), NOW)).toBe(true);
    // the channel's own group grants it too
    const channelGroup = (s: State): State => ({ ...onlyAdmins(s), channels: { ...s.channels, 12: { ...s.channels[12]!, can_move_messages_within_channel_group: { direct_members: [5], direct_subgroups: [] } } } });
    expect(canMoveWithin(as(5, channelGroup), 12)).toBe(true);
    expect(canMoveWithin(as(6, channelGroup), 12)).toBe(false);
    expect(canEditTopic(as(4), message({ type: "private", stream_id: undefined }), NOW)).toBe(false);
  });

  test("moving to another channel: members by default, never guests through the organization's setting", () => {
    expect(canMoveChannel(as(5), message(), NOW)).toBe(true);
    expect(canMoveOut(as(7), 12)).toBe(false);
    expect(canMoveChannel(as(5), message({ timestamp: NOW - 604_801 }), NOW)).toBe(false);
    expect(canMoveChannel(as(9), message({ timestamp: NOW - 604_801 }), NOW)).toBe(true);
    expect(canMoveOut(as(7, withRealm({ can_move_messages_between_channels_group: 2 })), 12)).toBe(false);
  });

  test("resolving: the organization's group or the channel's", () => {
    expect(canResolve(as(7), 12)).toBe(true);
    const nobody = withRealm({ can_resolve_topics_group: 12 });
    expect(canResolve(as(8, nobody), 12)).toBe(false);
    const channelGroup = (s: State): State => ({ ...nobody(s), channels: { ...s.channels, 12: { ...s.channels[12]!, can_resolve_topics_group: 10 } } });
    expect(canResolve(as(9, channelGroup), 12)).toBe(true);
    expect(canResolve(as(8, channelGroup), 12)).toBe(true);
    expect(canResolve(as(5, channelGroup), 12)).toBe(false);
  });

  test("deleting: anyone's for administrators; one's own by the organization's group and time limit", () => {
    expect(canDelete(as(8), message({ sender_id: 5 }), NOW)).toBe(true);
    expect(canDelete(as(9), message({ sender_id: 5 }), NOW)).toBe(false);
    expect(canDelete(as(4), message(), NOW)).toBe(true);
    expect(canDelete(as(4), message({ sender_id: 5 }), NOW)).toBe(false);
    expect(canDelete(as(4, withRealm({ message_content_delete_limit_seconds: 30 })), message(), NOW)).toBe(false);
    expect(canDelete(as(4, withRealm({ can_delete_own_message_group: 11 })), message(), NOW)).toBe(false);
    // a channel's delete-any group, for those who read the channel
    const channelGroup = (s: State): State => ({ ...s, channels: { ...s.channels, 12: { ...s.channels[12]!, can_delete_any_message_group: { direct_members: [6], direct_subgroups: [] } } } });
    expect(canDelete(as(6, channelGroup), message({ sender_id: 5 }), NOW)).toBe(true);
  });

  test("edit history: shown for an edited or moved message as the organization's policy allows", () => {
    expect(canViewHistory(as(4), message())).toBe(false);
    expect(canViewHistory(as(4), message({ last_edit_timestamp: NOW }))).toBe(true);
    expect(canViewHistory(as(4, withRealm({ message_edit_history_visibility_policy: "moves" })), message({ last_edit_timestamp: NOW }))).toBe(false);
    expect(canViewHistory(as(4, withRealm({ message_edit_history_visibility_policy: "moves" })), message({ last_moved_timestamp: NOW }))).toBe(true);
    expect(canViewHistory(as(4, withRealm({ message_edit_history_visibility_policy: "none" })), message({ last_moved_timestamp: NOW }))).toBe(false);
  });

  test("group settings hold people directly, through groups and their subgroups, or anonymous groups", () => {
    const s = sampleState();
    expect(holds({ ...s, me: 8 }, 2)).toBe(true);
    expect(holds({ ...s, me: 4 }, 11)).toBe(false);
    expect(holds({ ...s, me: 9 }, { direct_members: [], direct_subgroups: [10] })).toBe(true);
    expect(holds({ ...s, me: 4 }, { direct_members: [4], direct_subgroups: [] })).toBe(true);
    expect(holds({ ...s, me: 4 }, undefined)).toBe(false);
  });
});

describe("moved topics in the sidebar", () => {
  test("a topic moved away whole leaves its channel's list; a partial move leaves it there", () => {
    let s = topicsFetched(sampleState(), 12, [{ name: "lunch", max_id: 10 }, { name: "ghosts", max_id: 8 }]);
    const move = (mode: string) => ({ type: "update_message", message_id: 10, message_ids: [10], stream_id: 12, orig_subject: "lunch", subject: "✔ lunch", propagate_mode: mode, edit_timestamp: NOW });
    expect(applyEvent(s, move("change_one")).topics[12]!.map((t) => t.name)).toEqual(["lunch", "✔ lunch", "ghosts"]);
    s = applyEvent(s, move("change_all"));
    expect(s.topics[12]!.map((t) => t.name)).toEqual(["✔ lunch", "ghosts"]);
  });

  test("a topic's newest message deleted or moved away puts its channel's topic list out of date (fetched again: only the server knows what is left); an older one does not", () => {
    const s = topicsFetched(sampleState(), 12, [{ name: "Lunch", max_id: 10 }, { name: "ghosts", max_id: 8 }]);
    const outdated = (st: State) => st.topics_outdated[12] ?? 0;
    const del = (ids: number[], topic = "lunch") => ({ type: "delete_message", message_type: "stream", message_ids: ids, stream_id: 12, topic });
    // an older message of the topic: its newest is still there
    expect(outdated(applyEvent(s, del([9])))).toBe(0);
    // the newest (the event may spell the topic in another case)
    const once = applyEvent(s, del([10]));
    expect(outdated(once)).toBe(1);
    expect(outdated(applyEvent(once, del([8], "ghosts")))).toBe(2);
    // the list stays as it was until the new one arrives; a direct message or another channel's topic changes nothing
    expect(once.topics[12]).toEqual(s.topics[12]);
    expect(outdated(applyEvent(s, { type: "delete_message", message_type: "private", message_ids: [10] }))).toBe(0);
    expect(applyEvent(s, { ...del([10]), stream_id: 13 }).topics_outdated).toEqual({});
    // the newest moved away alone, or with the ones after it; or into a channel the reader is not in
    const move = (mode: string, extra: object = {}) => ({ type: "update_message", message_id: 10, message_ids: [10], stream_id: 12, orig_subject: "lunch", subject: "supper", propagate_mode: mode, edit_timestamp: NOW, ...extra });
    expect(outdated(applyEvent(s, move("change_one")))).toBe(1);
    expect(outdated(applyEvent(s, move("change_later")))).toBe(1);
    expect(outdated(applyEvent(s, { ...move("change_one"), message_id: 9, message_ids: [9] }))).toBe(0);
    const away = applyEvent(s, move("change_one", { new_stream_id: 99 }));
    expect([outdated(away), away.topics[12]!.map((t) => t.name)]).toEqual([1, ["Lunch", "ghosts"]]);
    // all of the topic moved into a channel the reader is not in: it leaves the list at once
    expect(applyEvent(s, move("change_all", { new_stream_id: 99 })).topics[12]!.map((t) => t.name)).toEqual(["ghosts"]);
    // a fetched list comes in with the server's answer
    expect(topicsFetched(once, 12, [{ name: "ghosts", max_id: 8 }]).topics[12]).toEqual([{ name: "ghosts", max_id: 8 }]);
  });
});
