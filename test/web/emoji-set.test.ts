/**
 * The person's emoji set as the web app draws it (lib/emoji-set.ts): "text" shows names, every other
 * Zulip value Google's images from the sheet; the sheet's table matches Parley's emoji names; the
 * user_settings event changes the set live. And the two reducer cases the settings gaps added: a
 * dragged linkifier's new order, and the server's web-public switch.
 */
import { describe, expect, test } from "bun:test";
import { SHEET_CELLS, SHEET_POSITIONS } from "../../assets/app/lib/emoji-sheet-positions";
import { emojiModeOf, spritePosition } from "../../assets/app/lib/emoji-set";
import { applyEvent } from "../../assets/app/state/apply-event";
import { droppedIds, movedIds } from "../../assets/app/views/settings/controls/values";
import zulipNames from "../../src/domain/emoji/zulip-emoji-names.json";
import { sampleState } from "./fixtures";

const sheet = { url: "/static/sheet.png", cells: SHEET_CELLS, positions: SHEET_POSITIONS };

describe("the emoji set", () => {
  test("text is drawn as names; google, and Zulip's twitter and google-blob that Parley has no images for, as Google's", () => {
    expect(emojiModeOf("text")).toBe("text");
    for (const set of ["google", "twitter", "google-blob", undefined]) expect(emojiModeOf(set)).toBe("google");
  });

  test("every emoji Parley names has a cell in the sheet, and no two share one", () => {
    const codes = Object.keys(zulipNames.code_to_names);
    expect(codes.filter((c) => SHEET_POSITIONS[c] === undefined)).toEqual([]);
    const cells = Object.values(SHEET_POSITIONS);
    expect(new Set(cells).size).toBe(cells.length);
    expect(Math.max(...cells)).toBeLessThan(SHEET_CELLS * SHEET_CELLS);
  });

  test("a cell's position is its column and row as percentages of the sheet; an unknown code has none", () => {
    // :slightly_smiling_face: (1f642) sits in column 33, row 55 of emoji-datasource 15.1's sheet
    expect(SHEET_POSITIONS["1f642"]).toBe(55 * 62 + 33);
    expect(spritePosition(sheet, "1f642")).toBe(`${+((33 * 100) / 61).toFixed(4)}% ${+((55 * 100) / 61).toFixed(4)}%`);
    expect(spritePosition({ ...sheet, positions: { a: 0 } }, "a")).toBe("0% 0%");
    expect(spritePosition({ ...sheet, positions: { z: 62 * 62 - 1 } }, "z")).toBe("100% 100%");
    expect(spritePosition(sheet, "ffff")).toBeNull();
  });

  test("the user_settings event changes the set live", () => {
    const s = applyEvent(sampleState(), { type: "user_settings", op: "update", property: "emojiset", value: "text" });
    expect(s.settings.emojiset).toBe("text");
    expect(emojiModeOf(s.settings.emojiset)).toBe("text");
    expect(emojiModeOf(applyEvent(s, { type: "user_settings", op: "update", property: "emojiset", value: "google" }).settings.emojiset)).toBe("google");
  });
});

describe("reordering", () => {
  const list = [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }];
  test("a row dropped on another takes its place, the rest keep their order", () => {
    expect(droppedIds(list, 0, 2)).toEqual([2, 3, 1, 4]);
    expect(droppedIds(list, 3, 0)).toEqual([4, 1, 2, 3]);
    expect(droppedIds(list, 1, 1)).toEqual([1, 2, 3, 4]);
    // the keyboard's Move down is a drop one place further
    expect(droppedIds(list, 1, 2)).toEqual(movedIds(list, 1, 1));
  });

  test("the realm_linkifiers event puts the linkifiers in the stored order", () => {
    const s = applyEvent(sampleState(), {
      type: "realm_linkifiers",
      realm_linkifiers: [
        { id: 7, pattern: "b", url_template: "https://b/" },
        { id: 5, pattern: "a", url_template: "https://a/" },
      ],
    });
    expect(s.org!.linkifiers.map((l) => l.id)).toEqual([7, 5]);
  });
});

describe("web-public channels on this server", () => {
  test("the realm event for Parley's web_public_streams_enabled turns the app's web-public switch off and on", () => {
    let s = applyEvent(sampleState(), { type: "realm", op: "update", property: "web_public_streams_enabled", value: false });
    expect(s.realm.web_public_channels_enabled).toBe(false);
    s = applyEvent(s, { type: "realm", op: "update", property: "web_public_streams_enabled", value: true });
    expect(s.realm.web_public_channels_enabled).toBe(true);
  });
});
