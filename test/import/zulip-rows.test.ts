// Reading Zulip's rows whatever their vintage, and rewriting ids and upload paths in message text.
import { describe, expect, test } from "bun:test";
import { flagsOf, fk, rewriteHtml, rewriteUploads, seconds, table, UnknownFields, type IdMaps } from "../../src/import/zulip/rows";
import { parleyFlags, zulipFlagsMask, policyName, EDIT_HISTORY_POLICY } from "../../src/domain/zulip-export";
import { ImportError } from "../../src/import/common/problems";

const maps = (): IdMaps => ({
  users: new Map([[7, 70]]),
  streams: new Map([[31, 3]]),
  groups: new Map([[51, 5]]),
  uploads: new Map([["2/ab/Xy/notes.txt", "1/cd/Zw/notes.txt"]]),
  emojiFiles: new Map([["61.png", "abc.png"]]),
  oldRealmId: 2,
  newRealmId: 1,
});

describe("Zulip's rows", () => {
  test("flags come as Zulip's bitmask, or as names; Zulip's retired and internal bits are left out", () => {
    expect(flagsOf({ flags_mask: 1 | 2 | 8 })).toBe(1 | 2 | 8);
    expect(flagsOf({ flags_mask: 2048 | 4096 | 64 | 128 })).toBe(0);
    expect(flagsOf({ flags_mask: 512 | 1024 })).toBe(64 | 128);
    expect(flagsOf({ flags: ["read", "starred", "wildcard_mentioned", "no_such_flag"] })).toBe(1 | 2 | 16);
    expect(flagsOf({})).toBe(0);
  });

  test("flags go out in Zulip's layout and come back unchanged", () => {
    for (const f of [0, 1, 2, 3, 8, 16, 32, 64, 128, 255]) expect(parleyFlags(zulipFlagsMask(f, true))).toBe(f);
    expect(zulipFlagsMask(1 | 64, true)).toBe(1 | 512 | 2048);
  });

  test("foreign keys are plain ids or `_id` fields; timestamps are seconds or ISO dates", () => {
    expect(fk({ stream: 4 }, "stream")).toBe(4);
    expect(fk({ stream_id: 5 }, "stream")).toBe(5);
    expect(fk({ stream: null }, "stream")).toBeNull();
    expect(seconds(1714000000.5, 0)).toBe(1714000000.5);
    expect(seconds("2024-04-25T00:00:00Z", 0)).toBe(1714003200);
    expect(seconds("soon", 42)).toBe(42);
  });

  test("a table that is not a list of rows is refused naming it", () => {
    expect(table({}, "zerver_stream")).toEqual([]);
    expect(() => table({ zerver_stream: {} }, "zerver_stream")).toThrow(new ImportError("realm.json: zerver_stream is not a list of rows"));
    expect(() => table({ zerver_stream: [1] }, "zerver_stream")).toThrow(new ImportError("realm.json: zerver_stream item 1 is not an object"));
  });

  test("policies named or numbered", () => {
    expect(policyName(EDIT_HISTORY_POLICY, 2)).toBe("moves");
    expect(policyName(EDIT_HISTORY_POLICY, "none")).toBe("none");
    expect(policyName(EDIT_HISTORY_POLICY, 9)).toBeUndefined();
  });

  test("upload links and their thumbnails point at the new path; other links are left alone", () => {
    const m = maps();
    expect(rewriteUploads("[n](/user_uploads/2/ab/Xy/notes.txt) and /user_uploads/2/zz/none.txt", m)).toBe("[n](/user_uploads/1/cd/Zw/notes.txt) and /user_uploads/2/zz/none.txt");
    expect(rewriteUploads('<img src="/user_uploads/thumbnail/2/ab/Xy/notes.txt/840x560.webp">', m)).toBe('<img src="/user_uploads/thumbnail/1/cd/Zw/notes.txt/840x560.webp">');
  });

  test("people, channels, groups and emoji in rendered HTML get their new ids; unknown ids stay", () => {
    const html = '<span class="user-mention" data-user-id="7">@Di</span><span data-user-id="8">@X</span><a data-stream-id="31" href="/#narrow/channel/31-general">#general</a><span class="user-group-mention" data-user-group-id="51">@g</span><img src="/user_avatars/2/emoji/images/61.png">';
    expect(rewriteHtml(html, maps())).toBe(
      '<span class="user-mention" data-user-id="70">@Di</span><span data-user-id="8">@X</span><a data-stream-id="3" href="/#narrow/channel/3-general">#general</a><span class="user-group-mention" data-user-group-id="5">@g</span><img src="/user_avatars/1/emoji/images/abc.png">',
    );
  });

  test("unknown fields are listed per table; tables Parley does not read are not", () => {
    const u = new UnknownFields();
    u.note("zerver_stream", { id: 1, name: "x", sparkle: 1, glitter: 2 });
    u.note("zerver_future", { id: 1, anything: 1 });
    expect(u.lines()).toEqual(["Ignored 2 fields of zerver_stream that Parley has no place for: glitter, sparkle."]);
  });
});
