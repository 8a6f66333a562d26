/** Searching in the web app: Zulip's query language, the views it names, their URLs, suggestions, and which messages belong. */
import { describe, expect, test } from "bun:test";
import { parseHash, viewHash, type View } from "../../assets/app/nav/hash";
import { suggest } from "../../assets/app/search/suggest";
import { narrowForTerms, parseQuery, resolveTerms, termsOfNarrow, termsText, viewForQuery } from "../../assets/app/search/terms";
import { apiNarrow, isLocal, matches, narrowKey, type Narrow, type Term } from "../../assets/app/state/narrow";
import { messagesFetched } from "../../assets/app/state/fetched";
import { applyEvent } from "../../assets/app/state/apply-event";
import type { Message } from "../../assets/app/state/types";
import { sampleMessage, sampleState } from "./fixtures";

const state = sampleState();
const search = (...terms: Term[]): Narrow => ({ kind: "search", terms });

const message = (over: Partial<Message>) => sampleMessage({ id: 100, ...over });

describe("reading a query", () => {
  test("operators become terms and the other words one free-text term, in order; quotes and + keep spaces in an operand", () => {
    expect(parseQuery('channel:general topic:"lunch plans" pizza -is:starred sender:5@example.com hot')).toEqual([
      { operator: "channel", operand: "general", negated: false },
      { operator: "topic", operand: "lunch plans", negated: false },
      { operator: "search", operand: "pizza", negated: false },
      { operator: "is", operand: "starred", negated: true },
      { operator: "sender", operand: "5@example.com", negated: false },
      { operator: "search", operand: "hot", negated: false },
    ]);
    expect(parseQuery("stream:design+team subject:a+b%2Bc")).toEqual([
      { operator: "channel", operand: "design team", negated: false },
      { operator: "topic", operand: "a b+c", negated: false },
    ]);
    // a word with a colon that is no operator is text; an operator still waiting for its operand is left out
    expect(parseQuery("time: 10:30 channel:")).toEqual([{ operator: "search", operand: "time: 10:30", negated: false }]);
    expect(parseQuery("   ")).toEqual([]);
  });

  test("names resolve to ids: a channel by name or id, people by email, name or 'me', a conversation to its key", () => {
    expect(resolveTerms(state, parseQuery("channel:General sender:me dm:5@example.com,Cordelia is:private has:Image"))).toEqual({
      terms: [
        { operator: "channel", operand: "12" },
        { operator: "sender", operand: "4" },
        { operator: "dm", operand: "5,6" },
        { operator: "is", operand: "dm" },
        { operator: "has", operand: "image" },
      ],
    });
    expect(resolveTerms(state, parseQuery("channel:13 near:42 ghost"))).toEqual({ terms: [{ operator: "channel", operand: "13" }, { operator: "search", operand: "ghost" }], near: 42 });
    expect(resolveTerms(state, parseQuery("channel:nowhere"))).toEqual({ error: "There is no channel named “nowhere”." });
    expect(resolveTerms(state, parseQuery("sender:nobody@example.com"))).toEqual({ error: "No one here is known as “nobody@example.com”." });
    expect(resolveTerms(state, parseQuery("near:soon"))).toEqual({ error: "A message id is a number." });
  });

  test("terms that are exactly a plain view open that view; anything more is a search", () => {
    const t = (operator: string, operand: string, negated?: boolean): Term => (negated ? { operator, operand, negated } : { operator, operand });
    expect(narrowForTerms([t("channel", "12")])).toEqual({ kind: "channel", stream_id: 12 });
    expect(narrowForTerms([t("channel", "12"), t("topic", "lunch")])).toEqual({ kind: "topic", stream_id: 12, topic: "lunch" });
    expect(narrowForTerms([t("dm", "5")])).toEqual({ kind: "dm", key: "5" });
    expect(narrowForTerms([t("is", "starred")])).toEqual({ kind: "starred" });
    expect(narrowForTerms([t("is", "mentioned")])).toEqual({ kind: "mentioned" });
    expect(narrowForTerms([t("is", "dm")])).toEqual({ kind: "dms" });
    expect(narrowForTerms([t("in", "home")])).toEqual({ kind: "feed" });
    expect(narrowForTerms([t("channel", "12"), t("search", "ghost")])).toEqual(search(t("channel", "12"), t("search", "ghost")));
    expect(narrowForTerms([t("channel", "12", true)])).toEqual(search(t("channel", "12", true)));
    expect(narrowForTerms([t("is", "unread")])).toEqual(search(t("is", "unread")));
    // two channels (or topics, conversations) at once find nothing: refused
    expect(narrowForTerms([t("channel", "12"), t("channel", "13")])).toBeNull();
    expect(viewForQuery(state, "channel:general channel:design+team")).toEqual({ error: expect.stringContaining("cannot all hold at once") });
  });

  test("a view's terms are written back as the search bar shows them, names for ids and '+' for spaces", () => {
    const n = search({ operator: "channel", operand: "13" }, { operator: "topic", operand: "lunch plans" }, { operator: "sender", operand: "5" }, { operator: "is", operand: "starred", negated: true }, { operator: "search", operand: "hot pizza" });
    const text = termsText(state, termsOfNarrow(n));
    expect(text).toBe("channel:design+team topic:lunch+plans sender:5@example.com -is:starred hot pizza");
    // and read back, the same view
    expect(viewForQuery(state, text)).toEqual({ narrow: n });
    expect(termsText(state, termsOfNarrow({ kind: "dm", key: "5,6" }))).toBe("dm:5@example.com,6@example.com");
  });
});

describe("search views", () => {
  test("a search's URL is Zulip's, with people and channels as slugs, and reads back as the same view", () => {
    const n = search({ operator: "channel", operand: "12" }, { operator: "sender", operand: "5" }, { operator: "has", operand: "link", negated: true }, { operator: "search", operand: "ghost 100%" });
    const v: View = { kind: "narrow", narrow: n };
    expect(viewHash(state, v)).toBe("#narrow/channel/12-general/sender/5-Othello.2C-the-Moor-of-Venice/-has/link/search/ghost.20100.25");
    expect(parseHash(state, viewHash(state, v))).toEqual(v);
    expect(parseHash(state, "#narrow/search/ghost")).toEqual({ kind: "narrow", narrow: search({ operator: "search", operand: "ghost" }) });
    expect(parseHash(state, "#narrow/topic/lunch")).toEqual({ kind: "narrow", narrow: search({ operator: "topic", operand: "lunch" }) });
    expect(parseHash(state, "#narrow/is/unread/near/9")).toEqual({ kind: "narrow", narrow: search({ operator: "is", operand: "unread" }), near: 9 });
    // an older link naming people by email
    expect(parseHash(state, "#narrow/sender/6@example.2Ecom")).toEqual({ kind: "narrow", narrow: search({ operator: "sender", operand: "6" }) });
  });

  test("the server is asked with ids and negations; each search is a list of its own", () => {
    const n = search({ operator: "channel", operand: "12" }, { operator: "dm", operand: "5,6" }, { operator: "sender", operand: "5", negated: true }, { operator: "search", operand: "x" });
    expect(apiNarrow(n)).toEqual([
      { operator: "channel", operand: 12 },
      { operator: "dm", operand: [5, 6] },
      { operator: "sender", operand: 5, negated: true },
      { operator: "search", operand: "x" },
    ]);
    expect(narrowKey(search({ operator: "topic", operand: "Lunch" }))).toBe(narrowKey(search({ operator: "topic", operand: "lunch" })));
    expect(narrowKey(search({ operator: "search", operand: "a" }))).not.toBe(narrowKey(search({ operator: "search", operand: "b" })));
  });

  test("a search the app can judge takes in new messages that match; one with free text or has: leaves that to the server", () => {
    const bySender = search({ operator: "sender", operand: "5" }, { operator: "is", operand: "resolved" });
    expect(isLocal(bySender)).toBe(true);
    expect(matches(state, bySender, message({ subject: "✔ lunch" }))).toBe(true);
    expect(matches(state, bySender, message({ subject: "lunch" }))).toBe(false);
    expect(matches(state, bySender, message({ sender_id: 6, subject: "✔ lunch" }))).toBe(false);
    const notStarred = search({ operator: "is", operand: "starred", negated: true }, { operator: "channel", operand: "12" });
    expect(matches(state, notStarred, message({}))).toBe(true);
    expect(matches(state, notStarred, message({ flags: ["starred"] }))).toBe(false);
    const dms = search({ operator: "dm", operand: "5" }, { operator: "is", operand: "unread" });
    const dm = message({ type: "private", stream_id: undefined, subject: "", display_recipient: [{ id: 4, email: "", full_name: "" }, { id: 5, email: "", full_name: "" }] });
    expect(matches(state, dms, dm)).toBe(true);
    expect(matches(state, dms, { ...dm, flags: ["read"] })).toBe(false);
    const text = search({ operator: "sender", operand: "5" }, { operator: "search", operand: "ghost" });
    expect(isLocal(text)).toBe(false);
    expect(matches(state, text, message({}))).toBe(false);

    // a new message from othello joins the judged search, not the free-text one
    let s = messagesFetched(state, bySender, { messages: [], found_oldest: true, found_newest: true }, "replace");
    s = messagesFetched(s, text, { messages: [], found_oldest: true, found_newest: true }, "replace");
    s = applyEvent(s, { type: "message", message: message({ id: 300, subject: "✔ lunch" }), flags: [] });
    expect(s.lists[narrowKey(bySender)]!.ids).toEqual([300]);
    expect(s.lists[narrowKey(text)]!.ids).toEqual([]);
  });

  test("the server's highlights stay with the search's list, off the message, and go when the message changes", () => {
    const n = search({ operator: "search", operand: "hi" });
    const found = { ...message({ id: 7 }), match_content: '<p><span class="highlight">hi</span></p>', match_subject: "lunch" };
    let s = messagesFetched(state, n, { messages: [found], found_oldest: true, found_newest: true }, "replace");
    expect(s.lists[narrowKey(n)]!.highlights).toEqual({ 7: { content: '<p><span class="highlight">hi</span></p>', subject: "lunch" } });
    expect("match_content" in s.messages[7]!).toBe(false);
    s = applyEvent(s, { type: "update_message", message_id: 7, message_ids: [7], rendered_content: "<p>bye</p>", edit_timestamp: 1_700_000_100, flags: [] });
    expect(s.lists[narrowKey(n)]!.highlights).toEqual({});
    expect(s.messages[7]!.content).toBe("<p>bye</p>");
  });
});

describe("suggestions", () => {
  const queries = (text: string) => suggest(state, text).map((x) => x.query);

  test("with nothing typed: the common searches", () => {
    expect(queries("")).toEqual(["is:starred", "is:mentioned", "is:dm", "is:unread", "sender:me", "has:link", "has:image", "has:attachment"]);
  });

  test("a word: searching for it first, then operators, people, channels and is: operands it starts", () => {
    expect(queries("ch")).toEqual(["ch", "channel:"]);
    expect(suggest(state, "ch")[1]).toMatchObject({ complete: false, shown: "channel:" });
    expect(queries("oth")).toEqual(["oth", "sender:5@example.com", "dm:5@example.com"]);
    expect(queries("gen")).toEqual(["gen", "channel:general"]);
    expect(queries("star")).toEqual(["star", "is:starred"]);
    // what came before the word stays
    expect(queries("channel:general corde")).toEqual(["channel:general corde", "channel:general sender:6@example.com", "channel:general dm:6@example.com"]);
  });

  test("after an operator: its operands, the closest first", () => {
    expect(queries("channel:d")).toEqual(["channel:design+team"]);
    expect(queries("channel:")).toEqual(["channel:design+team", "channel:general", "channel:v1.0+(old)"]);
    expect(queries("sender:")[0]).toBe("sender:me");
    expect(queries("sender:cor")).toEqual(["sender:6@example.com"]);
    expect(queries("-is:st")).toEqual(["-is:starred"]);
    expect(queries("has:")).toEqual(["has:link", "has:image", "has:attachment", "has:reaction"]);
    expect(queries("near:")).toEqual([]);
  });

  test("topic: offers the topics of the channel named before it", () => {
    const s = { ...state, topics: { 12: [{ name: "lunch plans", max_id: 9 }, { name: "Launch", max_id: 8 }, { name: "ghosts", max_id: 7 }] } };
    expect(suggest(s, "channel:general topic:la").map((x) => x.query)).toEqual(["channel:general topic:Launch"]);
    // a word inside the topic's name counts too
    expect(suggest(s, "channel:general topic:pl").map((x) => x.query)).toEqual(["channel:general topic:lunch+plans"]);
    expect(suggest(s, "topic:la")).toEqual([]);
  });
});
