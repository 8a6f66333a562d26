import { describe, expect, test } from "bun:test";
import {
  codeToName,
  emojiNameToCode,
  isUnicodeEmojiName,
  isValidUnicodeEmojiCode,
  matchEmojiAt,
  mayContainEmoji,
} from "../../src/domain/emoji";

describe("emoji names and codes", () => {
  test("a name maps to lowercase hex code points without the FE0F variation selector", () => {
    expect(emojiNameToCode("grinning")).toBe("1f600");
    expect(emojiNameToCode("heart")).toBe("2764");
    expect(emojiNameToCode("hash")).toBe("0023-20e3");
    expect(emojiNameToCode("woman-shrugging")).toBe("1f937-200d-2640");
  });

  test("every alias answers, and hyphenated names also answer with underscores", () => {
    expect(emojiNameToCode("+1")).toBe("1f44d");
    expect(emojiNameToCode("thumbsup")).toBe("1f44d");
    expect(emojiNameToCode("woman_shrugging")).toBe("1f937-200d-2640");
    expect(isUnicodeEmojiName("octopus")).toBe(true);
    expect(isUnicodeEmojiName("not_an_emoji")).toBe(false);
    expect(emojiNameToCode("")).toBeUndefined();
  });

  test("a code maps back to its canonical name, hyphens written as underscores", () => {
    expect(codeToName("1f600")).toBe("grinning");
    expect(codeToName("1f44d")).toBe("+1");
    expect(codeToName("1f937-200d-2640")).toBe("woman_shrugging");
    expect(codeToName("zzzz")).toBeUndefined();
  });

  test("only dataset codes in Zulip's spelling are valid unicode emoji codes", () => {
    expect(isValidUnicodeEmojiCode("1f600")).toBe(true);
    expect(isValidUnicodeEmojiCode("1f419")).toBe(true);
    expect(isValidUnicodeEmojiCode("1F600")).toBe(false);
    expect(isValidUnicodeEmojiCode("2764-fe0f")).toBe(false);
    expect(isValidUnicodeEmojiCode("1f600-1f600")).toBe(false);
    expect(isValidUnicodeEmojiCode("")).toBe(false);
    expect(isValidUnicodeEmojiCode("abc")).toBe(false);
  });

  test("skin-tone modifiers are not emoji of their own, as in Zulip", () => {
    expect(emojiNameToCode("skin-tone-2")).toBeUndefined();
    expect(isValidUnicodeEmojiCode("1f3fb")).toBe(false);
  });
});

describe("finding emoji in text", () => {
  test("the longest known sequence wins and a trailing FE0F belongs to it", () => {
    const text = "a🤷‍♀️b";
    expect(matchEmojiAt(text, 1)).toEqual({ code: "1f937-200d-2640", end: text.length - 1 });
    expect(matchEmojiAt("⬆️!", 0)).toEqual({ code: "2b06", end: 2 });
    expect(matchEmojiAt("#️⃣", 0)).toEqual({ code: "0023-20e3", end: 3 });
  });

  test("plain characters are not emoji", () => {
    expect(matchEmojiAt("#1", 0)).toBeNull();
    expect(matchEmojiAt("abc", 1)).toBeNull();
    expect(mayContainEmoji("plain ascii text #1")).toBe(false);
    expect(mayContainEmoji("a 💩")).toBe(true);
  });
});
