/** Putting fetched messages into the state (assets/app/state/fetched.ts), with the events that arrive meanwhile. */
import { expect, test } from "bun:test";
import { applyEvent } from "../../assets/app/state/apply-event";
import { messagesFetched } from "../../assets/app/state/fetched";
import type { Narrow } from "../../assets/app/state/narrow";
import type { Message } from "../../assets/app/state/types";
import { sampleState } from "./fixtures";

const message = (id: number, topic: string): Message => ({
  id,
  sender_id: 5,
  sender_full_name: "Othello",
  sender_email: "",
  timestamp: id,
  type: "stream",
  stream_id: 12,
  subject: topic,
  display_recipient: "general",
  content: `<p>${id}</p>`,
  flags: [],
  reactions: [],
  submessages: [],
  is_me_message: false,
});

test("a message that arrives while its view is being fetched (the answer does not have it) joins the view; others stay out", () => {
  const lunch: Narrow = { kind: "topic", stream_id: 12, topic: "lunch" };
  let s = sampleState();
  // the fetch went out; meanwhile two messages arrive as events, before the view has a list
  s = applyEvent(s, { type: "message", message: message(10, "lunch"), flags: [] });
  s = applyEvent(s, { type: "message", message: message(11, "dinner"), flags: [] });
  s = messagesFetched(s, lunch, { messages: [message(7, "lunch"), message(9, "Lunch")], found_oldest: true, found_newest: true }, "replace");
  expect(s.lists["topic:12:lunch"]!.ids).toEqual([7, 9, 10]);
  // an answer that stops short of the newest leaves the gap to the next fetch
  s = messagesFetched(s, { kind: "channel", stream_id: 12 }, { messages: [message(7, "lunch")], found_oldest: true, found_newest: false }, "replace");
  expect(s.lists["channel:12"]!.ids).toEqual([7]);
});

test("a page scrolled to that arrives after its view's list was dropped is not taken for the list: the view's own opening fetch still shows it loading", () => {
  const lunch: Narrow = { kind: "topic", stream_id: 12, topic: "lunch" };
  let s = messagesFetched(sampleState(), lunch, { messages: [message(70, "lunch"), message(71, "lunch")], found_oldest: false, found_newest: true }, "replace");
  // a link to an old message drops the list while its neighbours are fetched; an older page was on its way
  s = { ...s, lists: {} };
  const after = messagesFetched(s, lunch, { messages: [message(7, "lunch"), message(9, "lunch")], found_oldest: true, found_newest: false }, "older");
  expect(after).toBe(s);
  expect(after.lists["topic:12:lunch"]).toBeUndefined();
  // a held list still grows at either end
  s = messagesFetched(s, lunch, { messages: [message(20, "lunch")], found_oldest: false, found_newest: false }, "replace");
  s = messagesFetched(s, lunch, { messages: [message(7, "lunch")], found_oldest: true, found_newest: false }, "older");
  s = messagesFetched(s, lunch, { messages: [message(30, "lunch")], found_oldest: true, found_newest: true }, "newer");
  expect(s.lists["topic:12:lunch"]).toMatchObject({ ids: [7, 20, 30], found_oldest: true, found_newest: true });
});
