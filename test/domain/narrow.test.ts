import { describe, expect, test } from "bun:test";
import { matchesQueueNarrow, operandIds, parseNarrow, searchTerms } from "../../src/domain/narrow";
import { ftsQuery, highlightHtml, highlightTopic } from "../../src/domain/highlight";
import { flagList, FLAG } from "../../src/domain/flags";
import { normalizeContent, normalizeTopic, resolveChange, truncate } from "../../src/domain/topic";
import { policyAfterSend, policyAfterParticipation, AUTO_DEFAULTS, AUTO, VISIBILITY } from "../../src/domain/user-topics";

describe("parseNarrow", () => {
  test("accepts modern terms and legacy pairs, naming operators canonically", () => {
    expect(parseNarrow([{ operator: "stream", operand: "Denmark" }, ["subject", "castle"], ["pm-with", "a@b.c"], { operator: "is", operand: "private", negated: true }])).toEqual([
      { operator: "channel", operand: "Denmark", negated: false },
      { operator: "topic", operand: "castle", negated: false },
      { operator: "dm", operand: "a@b.c", negated: false },
      { operator: "is", operand: "dm", negated: true },
    ]);
    expect(parseNarrow([{ operator: "group-pm-with", operand: 7 }])).toEqual([{ operator: "dm-including", operand: 7, negated: false }]);
    expect(parseNarrow(null)).toEqual([]);
  });

  test("validates operand types per operator with Zulip's messages", () => {
    expect(() => parseNarrow([{ operator: "topic", operand: 5 }])).toThrow('elem["operand"] is not a string');
    expect(() => parseNarrow([{ operator: "dm", operand: ["x"] }])).toThrow('elem["operand"] is not a string, an integer or a list of integers');
    expect(() => parseNarrow([{ operator: "search", operand: "  " }])).toThrow('elem["operand"] cannot be blank');
    expect(() => parseNarrow([["a", "b", "c"]])).toThrow("Invalid narrow: element is not a string pair");
    expect(() => parseNarrow([{ operator: "id", operand: 1, extra: true }])).toThrow('Argument "extra" at elem is unexpected');
    expect(() => parseNarrow({})).toThrow("narrow is not a list");
  });

  test("ids in operands", () => {
    expect(operandIds(4)).toEqual([4]);
    expect(operandIds([1, 2])).toEqual([1, 2]);
    expect(operandIds("a@b.c")).toBeNull();
  });
});

describe("search", () => {
  test("words and quoted phrases", () => {
    expect(searchTerms('cool "dark sunglasses"  now')).toEqual(["cool", "dark sunglasses", "now"]);
  });

  test("FTS5 queries quote every term and drop what cannot match", () => {
    expect(ftsQuery(["cool", "dark sunglasses", 'say "hi"'])).toBe('"cool" "dark sunglasses" "say  hi"');
    expect(ftsQuery(["!!!"])).toBeNull();
  });

  test("highlights whole words in text, never inside tags", () => {
    expect(highlightHtml('<p>Light <a href="light">lighter light</a></p>', ["light"])).toBe(
      '<p><span class="highlight">Light</span> <a href="light">lighter <span class="highlight">light</span></a></p>',
    );
    expect(highlightTopic("a <b> & light", ["light"])).toBe('a &lt;b&gt; &amp; <span class="highlight">light</span>');
  });
});

describe("queue narrows", () => {
  const m = { type: "stream" as const, streamName: "Denmark", streamId: 1, topic: "Castle", senderEmail: "hamlet@zulip.com", senderId: 4, flags: ["mentioned"] };
  test("channel, topic, sender and is: terms", () => {
    expect(matchesQueueNarrow([["stream", "denmark"], ["topic", "castle"]], m)).toBe(true);
    expect(matchesQueueNarrow([["stream", "Verona"]], m)).toBe(false);
    expect(matchesQueueNarrow([["sender", "HAMLET@zulip.com"]], m)).toBe(true);
    expect(matchesQueueNarrow([["is", "mentioned"]], m)).toBe(true);
    expect(matchesQueueNarrow([["is", "private"]], m)).toBe(false);
    expect(matchesQueueNarrow([["is", "unread"]], m)).toBe(true);
    expect(matchesQueueNarrow([["search", "x"]], m)).toBe(false);
  });
});

describe("flags, topics and content", () => {
  test("flag lists derive wildcard_mentioned", () => {
    expect(flagList(FLAG.read | FLAG.topic_wildcard_mentioned)).toEqual(["read", "topic_wildcard_mentioned", "wildcard_mentioned"]);
    expect(flagList(0)).toEqual([]);
  });

  test("topics: empty aliases, truncation, bad characters", () => {
    expect(normalizeTopic("  (no topic) ", 60, "general chat")).toEqual({ topic: "" });
    expect(normalizeTopic("general chat", 60, "general chat")).toEqual({ topic: "" });
    expect(normalizeTopic("x".repeat(61), 60, "general chat")).toEqual({ topic: "x".repeat(57) + "..." });
    expect(normalizeTopic("a\nb", 60, "general chat")).toEqual({ error: "Invalid character in topic, at position 2!" });
    expect(truncate("😀".repeat(5), 4, "...")).toBe("😀...");
  });

  test("content: trimmed, empty refused, truncated with a marker", () => {
    expect(normalizeContent("\n\nhi  \n", 100)).toEqual({ content: "hi" });
    expect(normalizeContent(" ", 100)).toEqual({ error: "Message must not be empty" });
    const long = normalizeContent("y".repeat(50), 30);
    expect("content" in long && long.content).toBe("y".repeat(10) + "\n[message truncated]");
  });

  test("resolving and unresolving", () => {
    expect(resolveChange("bug", "✔ bug")).toBe("resolved");
    expect(resolveChange("✔ bug", "bug")).toBe("unresolved");
    expect(resolveChange("bug", "✔ other")).toBeNull();
  });

  test("automatic visibility on send and participation", () => {
    expect(policyAfterSend(AUTO_DEFAULTS, VISIBILITY.inherit, false, true)).toBe(VISIBILITY.followed);
    expect(policyAfterSend(AUTO_DEFAULTS, VISIBILITY.inherit, false, false)).toBeNull();
    expect(policyAfterSend(AUTO_DEFAULTS, VISIBILITY.inherit, true, false)).toBe(VISIBILITY.unmuted);
    expect(policyAfterSend(AUTO_DEFAULTS, VISIBILITY.unmuted, true, false)).toBeNull();
    expect(policyAfterSend(AUTO_DEFAULTS, VISIBILITY.followed, true, true)).toBeNull();
    const onParticipation = { ...AUTO_DEFAULTS, automatically_follow_topics_policy: AUTO.onParticipation };
    expect(policyAfterParticipation(onParticipation, VISIBILITY.inherit, false)).toBe(VISIBILITY.followed);
    expect(policyAfterParticipation(AUTO_DEFAULTS, VISIBILITY.inherit, false)).toBeNull();
  });
});
