import { describe, expect, test } from "bun:test";
import { convertSlackMarkup, threadTopic } from "../../src/import/slack/markup";
import { zulipEmojiOf } from "../../src/import/slack/emoji";
import { bar, summaryLines } from "../../src/import/common/progress";

const lookups = {
  userName: (id: string, short: string | undefined) => (id === "U1" && (short === undefined || short === "ada") ? "Ada Lovelace" : undefined),
  channelName: (id: string) => (id === "C1" ? "general" : undefined),
};
const md = (text: string) => convertSlackMarkup(text, lookups).content;

describe("Slack markup to Zulip Markdown (Zulip's slack_message_conversion rules)", () => {
  test("bold, italic and strike convert only between spaces, punctuation or line ends", () => {
    expect(md("*bold* _it_ ~gone~")).toBe("**bold** *it* ~~gone~~");
    expect(md("(*bold*), _it_.")).toBe("(**bold**), *it*.");
    expect(md("2*3*4 snake_case_name a~b~c")).toBe("2*3*4 snake_case_name a~b~c");
    expect(md("line one\n*two*")).toBe("line one\n**two**");
  });

  test("mentions: known people by full name, unknown ids left as they are, a mismatched short name too", () => {
    expect(md("hi <@U1> and <@U1|ada>")).toBe("hi @**Ada Lovelace** and @**Ada Lovelace**");
    expect(md("hi <@U9> and <@U1|bob>")).toBe("hi <@U9> and <@U1|bob>");
    expect(md("<!here> <!channel> <!everyone>")).toBe("@**all** @**all** @**all**");
    expect(md("see <#C1|general> and <#C1> and <#C9|other>")).toBe("see #**general** and #**general** and <#C9|other>");
  });

  test("links with and without labels, and mail addresses", () => {
    expect(convertSlackMarkup("<https://example.com/a?b=1|the doc>", lookups)).toEqual({ content: "[the doc](https://example.com/a?b=1)", hasLink: true });
    expect(md("<https://example.com/x> <www.example.org>")).toBe("https://example.com/x www.example.org");
    expect(md("<mailto:ada@example.com|ada@example.com>")).toBe("mailto:ada@example.com");
    expect(convertSlackMarkup("no links here", lookups).hasLink).toBe(false);
  });

  test("code spans and blocks keep their backticks", () => {
    expect(md("`x` and ```\nlet y;\n```")).toBe("`x` and ```\nlet y;\n```");
  });
});

describe("thread topics", () => {
  test("are the thread's date and first words, cut at 60 characters with …, numbered on a repeat", () => {
    const counter = new Map<string, number>();
    const ts = Date.UTC(2024, 4, 22, 13) / 1000;
    expect(threadTopic("Hello there", ts, counter)).toBe("2024-05-22 Hello there");
    expect(threadTopic("Hello there", ts, counter)).toBe("2024-05-22 Hello there (2)");
    const long = "word ".repeat(30);
    const first = threadTopic(long, ts, counter);
    expect([...first].length).toBe(60);
    expect(first.endsWith("…")).toBe(true);
    const second = threadTopic(long, ts, counter);
    expect([...second].length).toBe(60);
    expect(second.endsWith("… (2)")).toBe(true);
    expect(threadTopic("two\nlines", ts, counter)).toBe("2024-05-22 two lines");
  });
});

describe("reaction emoji", () => {
  test("Slack's names map to Zulip's, skin tones dropped, unknown names undefined", () => {
    expect(zulipEmojiOf("thumbsup::skin-tone-3")).toEqual({ name: "+1", code: "1f44d" });
    expect(zulipEmojiOf("white_check_mark")?.code).toBe("2705");
    expect(zulipEmojiOf("tada")?.name).toBe("tada");
    expect(zulipEmojiOf("surely_not_an_emoji")).toBeUndefined();
  });

  test("a name iamcal gives another emoji than Zulip does means iamcal's emoji, under Zulip's name for it", () => {
    // Slack's :smile: is 😄 (1f604), which Zulip calls big_smile; Zulip's own smile is 🙂 (1f642)
    expect(zulipEmojiOf("smile")).toEqual({ name: "big_smile", code: "1f604" });
    expect(zulipEmojiOf("slightly_smiling_face")).toEqual({ name: "smile", code: "1f642" });
    expect(zulipEmojiOf("laughing")?.code).toBe("1f606");
  });
});

describe("progress and summary", () => {
  test("the bar shows counts, a rate and an estimate; the summary counts what came in and what did not", () => {
    expect(bar(50, 100, "days of messages", 5)).toBe(`[${"#".repeat(15)}${".".repeat(15)}] 50/100 days of messages, 10/s, about 5 s left`);
    expect(bar(100, 100, "days", 5)).toContain("100/100 days, 20/s, done");
    expect(summaryLines({ people: 3, channels: 2, messages: 1200, reactions: 4, files: 1 }, new Map([["messages", 2], ["files", 0]]))).toEqual([
      "Imported 3 people, 2 channels, 1,200 messages, 4 reactions, 1 files.",
      "Skipped 2 messages (each named above).",
    ]);
  });
});
