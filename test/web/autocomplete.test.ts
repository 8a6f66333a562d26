/** The compose box's autocomplete rules (assets/app/compose/autocomplete.ts), as Zulip's composebox typeahead. */
import { describe, expect, test } from "bun:test";
import { applySuggestion, channelSuggestions, closeTopicToken, matchRank, mentionSuggestions, mentionSyntax, tokenAt, topicSuggestions, type MentionContext, type Suggestion, type Token } from "../../assets/app/compose/autocomplete";
import { emojiEntries, emojiSuggestions } from "../../assets/app/lib/emoji-match";
import type { User, UserGroup } from "../../assets/app/state/types";

const user = (user_id: number, full_name: string, extra: Partial<User> = {}): User => ({ user_id, full_name, email: `${full_name.split(/\W/)[0]!.toLowerCase()}@example.com`, is_bot: false, is_active: true, role: 400, timezone: "", avatar_url: null, ...extra });
const USERS = [user(4, "King Hamlet"), user(5, "Othello, the Moor of Venice"), user(6, "Cordelia, Lear's daughter"), user(7, "Ophelia"), user(8, "Horatio"), user(9, "Old Hamlet", { is_active: false }), user(10, "Hamlet Junior"), user(11, "Renée Fleming")];
const GROUPS: UserGroup[] = [
  { id: 1, name: "role:members", is_system_group: true, members: [4, 5], direct_subgroup_ids: [] },
  { id: 2, name: "actors", is_system_group: false, members: [5, 6], direct_subgroup_ids: [] },
  { id: 3, name: "hamlet fans", is_system_group: false, members: [7], direct_subgroup_ids: [] },
];
const ctx = (over: Partial<MentionContext> = {}): MentionContext => ({ users: USERS, groups: GROUPS, muted: [], preferred: [], to: "stream", ...over });
const names = (s: Suggestion[]) => s.map((x) => (x.kind === "user" ? x.user.full_name : x.kind === "group" ? `group ${x.group.name}` : x.kind === "wildcard" ? `@${x.name}` : x.kind === "channel" ? `#${x.name}` : x.kind === "topic" ? `>${x.topic}${x.isNew ? " (new)" : ""}` : x.kind));

describe("the token at the cursor", () => {
  test("a mention, a silent mention, a channel, a topic after a picked channel, an emoji", () => {
    expect(tokenAt("Hello @ham", 10)).toEqual({ kind: "mention", silent: false, query: "ham", start: 6 });
    expect(tokenAt("@_oph", 5)).toEqual({ kind: "mention", silent: true, query: "oph", start: 0 });
    expect(tokenAt("(@**King Ha", 11)).toEqual({ kind: "mention", silent: false, query: "King Ha", start: 1 });
    expect(tokenAt("see #des", 8)).toEqual({ kind: "channel", query: "des", start: 4 });
    expect(tokenAt("see #**design>pla", 17)).toEqual({ kind: "topic", channel: "design", query: "pla", start: 4 });
    expect(tokenAt("nice :tad", 9)).toEqual({ kind: "emoji", query: "tad", start: 5 });
    // the cursor in the middle of the text: only what is before it counts, and a word must not go on after it
    expect(tokenAt("hi @oth there", 7)).toEqual({ kind: "mention", silent: false, query: "oth", start: 3 });
    expect(tokenAt("hi @othello", 7)).toBeNull();
  });

  test("nothing where Zulip offers nothing: an address, an emoticon, a bare sign, a space after it, a finished mention, a time", () => {
    expect(tokenAt("mail me at a@b", 14)).toBeNull();
    expect(tokenAt("smile :)", 8)).toBeNull();
    expect(tokenAt("smile :-p", 9)).toBeNull();
    expect(tokenAt("a :", 3)).toBeNull();
    expect(tokenAt("#", 1)).toBeNull();
    expect(tokenAt("@ everyone", 10)).toBeNull();
    expect(tokenAt("@**King Hamlet** said", 21)).toBeNull();
    expect(tokenAt("at 12:30", 8)).toBeNull();
    expect(tokenAt("see #**design>", 14)).toEqual({ kind: "topic", channel: "design", query: "", start: 4 });
    expect(tokenAt("see #**design> x", 16)).toBeNull();
  });
});

describe("suggestions", () => {
  test("people match at the start of their name or of a word of it, then by email; the inactive and the muted are left out", () => {
    expect(names(mentionSuggestions("ham", false, ctx()))).toEqual(["Hamlet Junior", "group hamlet fans", "King Hamlet"]);
    expect(names(mentionSuggestions("moor", false, ctx()))).toEqual(["Othello, the Moor of Venice"]);
    expect(names(mentionSuggestions("ophelia@", false, ctx()))).toEqual(["Ophelia"]);
    expect(names(mentionSuggestions("ham", false, ctx({ muted: [10] })))).toEqual(["group hamlet fans", "King Hamlet"]);
    // a query without accents finds a name with them
    expect(names(mentionSuggestions("renee", false, ctx()))).toEqual(["Renée Fleming"]);
  });

  test("people who spoke in the conversation come first among equal matches, and people before groups", () => {
    expect(names(mentionSuggestions("o", false, ctx()))).toEqual(["Ophelia", "Othello, the Moor of Venice"]);
    expect(names(mentionSuggestions("o", false, ctx({ preferred: [5] })))).toEqual(["Othello, the Moor of Venice", "Ophelia"]);
    expect(names(mentionSuggestions("h", false, ctx({ preferred: [4] })))).toEqual(["Hamlet Junior", "Horatio", "group hamlet fans", "King Hamlet"]);
  });

  test("wildcards as Zulip offers them: everyone in a channel or the topic's participants; in a direct message everyone; none when silent; role groups never", () => {
    expect(names(mentionSuggestions("", false, ctx())).slice(0, 5)).toEqual(["@all", "@channel", "@everyone", "@stream", "@topic"]);
    expect(names(mentionSuggestions("to", false, ctx()))).toEqual(["@topic"]);
    expect(names(mentionSuggestions("", false, ctx({ to: "direct" }))).slice(0, 2)).toEqual(["@all", "@everyone"]);
    expect(names(mentionSuggestions("al", true, ctx()))).toEqual([]);
    expect(names(mentionSuggestions("role", false, ctx()))).toEqual([]);
    expect(mentionSuggestions("", false, ctx()).length).toBe(8);
  });

  test("channels by name, subscribed ones first; archived ones left out", () => {
    const channels = [
      { stream_id: 1, name: "design", subscribed: false, is_archived: false },
      { stream_id: 2, name: "web-design", subscribed: true, is_archived: false },
      { stream_id: 3, name: "designers", subscribed: true, is_archived: false },
      { stream_id: 4, name: "design old", subscribed: true, is_archived: true },
    ];
    expect(names(channelSuggestions("des", channels))).toEqual(["#designers", "#design", "#web-design"]);
    expect(names(channelSuggestions("design", channels))).toEqual(["#design", "#designers", "#web-design"]);
  });

  test("topics: a link to the channel while nothing is typed, then matching topics, and the typed one as a new topic", () => {
    const topics = ["lunch plans", "release", "Lunch", "plans for q3"];
    expect(names(topicSuggestions("design", "", topics))).toEqual(["channel-link", ">lunch plans", ">release", ">Lunch", ">plans for q3"]);
    expect(names(topicSuggestions("design", "plan", topics))).toEqual([">plan (new)", ">plans for q3", ">lunch plans"]);
    expect(names(topicSuggestions("design", "lunch", topics))).toEqual([">Lunch", ">lunch plans"]);
  });

  test("emoji: the exact name, then popular ones, then names starting with the query (the organization's first), one name per emoji", () => {
    const codeToNames = { "1f44d": ["+1", "thumbs_up", "like"], "1f389": ["tada"], "1f419": ["octopus"], "1f3af": ["direct_hit", "target"], "1f4d6": ["book", "open_book"], "1f4da": ["books"] };
    const entries = emojiEntries(codeToNames, { 7: { id: "7", name: "book_club", source_url: "/user_avatars/1/emoji/7.png", deactivated: false }, 8: { id: "8", name: "old", source_url: "x", deactivated: true } });
    expect(emojiSuggestions("book", entries).map((e) => e.name)).toEqual(["book", "book_club", "books"]);
    expect(emojiSuggestions("thu", entries).map((e) => e.name)).toEqual(["thumbs_up"]);
    expect(emojiSuggestions("hit", entries).map((e) => e.name)).toEqual(["direct_hit"]);
    expect(emojiSuggestions("old", entries)).toEqual([]);
    expect(emojiSuggestions("li", entries).map((e) => [e.name, e.code])).toEqual([["like", "1f44d"]]);
    expect(emojiSuggestions("open book", entries).map((e) => e.name)).toEqual(["open_book"]);
  });

  test("ranks: whole name, start, start of a word, nothing", () => {
    expect([matchRank("Ophelia", "ophelia"), matchRank("Ophelia", "oph"), matchRank("King Hamlet", "ham"), matchRank("King Hamlet", "mle")]).toEqual([0, 1, 2, -1]);
  });
});

describe("picking", () => {
  const pick = (text: string, s: Suggestion, cursor = text.length) => applySuggestion(text, cursor, tokenAt(text, cursor) as Token, s, USERS);

  test("people, groups and wildcards become Zulip's mention syntax, silent ones too; a shared name carries the id", () => {
    expect(pick("Hi @oth", { kind: "user", user: USERS[1]!, silent: false })).toEqual({ text: "Hi @**Othello, the Moor of Venice** ", cursor: 36 });
    expect(pick("@_oph and", { kind: "user", user: USERS[3]!, silent: true }, 5).text).toBe("@_**Ophelia**  and");
    expect(pick("@act", { kind: "group", group: GROUPS[1]!, silent: false }).text).toBe("@*actors* ");
    expect(pick("ping @_*act", { kind: "group", group: GROUPS[1]!, silent: true }).text).toBe("ping @_*actors* ");
    expect(pick("@al", { kind: "wildcard", name: "all", description: "" }).text).toBe("@**all** ");
    const twins = [...USERS, user(12, "Horatio")];
    expect(mentionSyntax(USERS[4]!, false, twins)).toBe("@**Horatio|8**");
    expect(mentionSyntax(USERS[4]!, false, USERS)).toBe("@**Horatio**");
  });

  test("a channel opens its topic list; a topic or the channel link closes the link; Esc keeps the typed text after a channel link", () => {
    expect(pick("see #des", { kind: "channel", stream_id: 1, name: "design", subscribed: true }).text).toBe("see #**design>");
    expect(pick("see #**design>pla", { kind: "topic", channel: "design", topic: "plans", isNew: false }).text).toBe("see #**design>plans** ");
    expect(pick("see #**design>", { kind: "channel-link", channel: "design" }).text).toBe("see #**design** ");
    const text = "see #**design>later";
    expect(closeTopicToken(text, text.length, tokenAt(text, text.length) as Token & { kind: "topic" })).toEqual({ text: "see #**design** later", cursor: 21 });
  });

  test("an emoji keeps a space before it", () => {
    expect(pick("nice :tad", { kind: "emoji", name: "tada", code: "1f389", reaction_type: "unicode_emoji" }).text).toBe("nice :tada: ");
    expect(pick("(:tad", { kind: "emoji", name: "tada", code: "1f389", reaction_type: "unicode_emoji" }).text).toBe("( :tada: ");
  });
});
