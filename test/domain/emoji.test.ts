import { describe, expect, test } from "bun:test";
import {
  codeToName,
  codeToNames,
  EMOJI_API_JSON,
  emojiNameToCode,
  isUnicodeEmojiName,
  isValidUnicodeEmojiCode,
  matchEmojiAt,
  mayContainEmoji,
} from "../../src/domain/emoji";

// Zulip 10.x's names (tools/setup/emoji/custom_emoji_names.py + CLDR 45; zulip-flutter's
// serverEmojiDataPopularLegacy holds the same popular ones).
describe("Zulip's emoji names and codes", () => {
  test("thumbs up is +1, with thumbs_up and like as aliases, as Zulip's apps send it", () => {
    expect(codeToNames("1f44d")).toEqual(["+1", "thumbs_up", "like"]);
    expect(emojiNameToCode("+1")).toBe("1f44d");
    expect(emojiNameToCode("thumbs_up")).toBe("1f44d");
    expect(emojiNameToCode("like")).toBe("1f44d");
    expect(codeToName("1f44d")).toBe("+1");
  });

  test("smile is 🙂 (1f642) as in Zulip 10, not emoji-datasource's 😄, and smiley stays 😃", () => {
    expect(emojiNameToCode("smile")).toBe("1f642");
    expect(emojiNameToCode("big_smile")).toBe("1f604");
    expect(emojiNameToCode("smiley")).toBe("1f603");
    expect(codeToNames("263a")).toEqual(["smiling_face", "relaxed"]);
    // slight_smile is Zulip 11's name for 1f642; Parley reports Zulip 10.
    expect(emojiNameToCode("slight_smile")).toBeUndefined();
  });

  test("the popular emoji have Zulip's names", () => {
    expect(codeToNames("1f389")).toEqual(["tada"]);
    expect(codeToNames("2764")).toEqual(["heart", "love", "love_you"]);
    expect(codeToNames("1f6e0")).toEqual(["working_on_it", "hammer_and_wrench", "tools"]);
    expect(codeToNames("1f419")).toEqual(["octopus"]);
    expect(codeToNames("1f600")).toEqual(["grinning", "happy"]);
  });

  test("codes are lowercase hex without FE0F, sequences dash-separated", () => {
    expect(emojiNameToCode("hash")).toBe("0023-20e3");
    expect(emojiNameToCode("woman_shrugging")).toBe("1f937-200d-2640");
    expect(emojiNameToCode("flag_united_states")).toBe("1f1fa-1f1f8");
    expect(codeToNames("1f1e6-1f1fd")).toEqual(["flag_åland_islands", "flag_aland_islands"]);
  });

  test("emoji-datasource names Zulip does not use are not emoji names", () => {
    for (const name of ["thumbsup", "slightly_smiling_face", "woman-shrugging", "skin-tone-2", "clock1", "", "not_an_emoji"]) {
      expect(isUnicodeEmojiName(name)).toBe(false);
      expect(emojiNameToCode(name)).toBeUndefined();
    }
    expect(isUnicodeEmojiName("octopus")).toBe(true);
  });

  test("only Zulip's codes in Zulip's spelling are valid", () => {
    expect(isValidUnicodeEmojiCode("1f600")).toBe(true);
    expect(isValidUnicodeEmojiCode("1F600")).toBe(false);
    expect(isValidUnicodeEmojiCode("2764-fe0f")).toBe(false);
    expect(isValidUnicodeEmojiCode("1f600-1f600")).toBe(false);
    expect(isValidUnicodeEmojiCode("1f3fb")).toBe(false); // skin tones are not emoji of their own
    expect(isValidUnicodeEmojiCode("1f550")).toBe(false); // Zulip leaves out the clock faces but 1f557
    expect(isValidUnicodeEmojiCode("1f557")).toBe(true);
    expect(isValidUnicodeEmojiCode("")).toBe(false);
    expect(codeToName("zzzz")).toBeUndefined();
  });

  test("the table is Zulip's emoji_api.json: one name per emoji at least, no name shared", () => {
    const doc = JSON.parse(EMOJI_API_JSON) as { code_to_names: Record<string, string[]> };
    expect(Object.keys(doc)).toEqual(["code_to_names"]);
    const seen = new Map<string, string>();
    for (const [code, names] of Object.entries(doc.code_to_names)) {
      expect(code).toMatch(/^[0-9a-f]{4,5}(-[0-9a-f]{4,5})*$/);
      expect(code).not.toContain("fe0f");
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        expect(seen.get(name)).toBeUndefined();
        seen.set(name, code);
      }
    }
    expect(Object.keys(doc.code_to_names).length).toBe(1875); // Unicode 15.1 less skin tones and 23 clock faces
  });
});

describe("finding emoji in text", () => {
  test("the longest known sequence wins and a trailing FE0F belongs to it", () => {
    const text = "a🤷‍♀️b";
    expect(matchEmojiAt(text, 1)).toEqual({ code: "1f937-200d-2640", end: text.length - 1 });
    expect(matchEmojiAt("⬆️!", 0)).toEqual({ code: "2b06", end: 2 });
    expect(matchEmojiAt("#️⃣", 0)).toEqual({ code: "0023-20e3", end: 3 });
  });

  test("plain characters and emoji Zulip leaves out are not matched", () => {
    expect(matchEmojiAt("#1", 0)).toBeNull();
    expect(matchEmojiAt("abc", 1)).toBeNull();
    expect(matchEmojiAt("🕐", 0)).toBeNull();
    expect(mayContainEmoji("plain ascii text #1")).toBe(false);
    expect(mayContainEmoji("a 💩")).toBe(true);
  });
});
