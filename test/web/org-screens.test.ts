/** The administration screens' small rules: sizes as people read them, select options as Zulip stores them, emoji names checked before sending. */
import { describe, expect, test } from "bun:test";
import { formatBytes } from "../../assets/app/views/settings/server/format";
import { selectOptions } from "../../assets/app/views/settings/profile-fields/field-data";
import { emojiNameProblem } from "../../assets/app/views/settings/emoji/emoji-name";

describe("the administration screens' rules", () => {
  test("sizes read as bytes, kilobytes, megabytes and gigabytes", () => {
    expect([0, 1023, 1024, 1536, 10 * 1024 * 1024, 5.5 * 1024 ** 3].map(formatBytes)).toEqual(["0 B", "1023 B", "1.0 KB", "1.5 KB", "10 MB", "5.5 GB"]);
  });

  test("a list field's options, one a line, become Zulip's field_data in order, blank lines skipped", () => {
    expect(selectOptions("North\n\n  South \nEast")).toEqual({ "0": { text: "North", order: "1" }, "1": { text: "South", order: "2" }, "2": { text: "East", order: "3" } });
  });

  test("emoji names: letters, digits, spaces, dashes and underscores, ending with a letter or digit", () => {
    expect(emojiNameProblem("party parrot")).toBeNull();
    expect(emojiNameProblem("yorick_2")).toBeNull();
    expect(emojiNameProblem("")).toBe("Enter a name for the emoji.");
    expect(emojiNameProblem("bad_")).toMatch(/must end with a letter or digit/);
    expect(emojiNameProblem("no!")).toMatch(/may contain lowercase letters/);
  });
});
