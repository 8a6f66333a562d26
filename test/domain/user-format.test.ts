import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { gravatarUrl } from "../../src/domain/user-format";

describe("gravatarUrl", () => {
  const md5 = (s: string) => createHash("md5").update(s).digest("hex");
  test("hashes the trimmed, lower-cased email, the same on every call", () => {
    const expected = `https://secure.gravatar.com/avatar/${md5("hamlet@zulip.com")}?d=identicon&version=1`;
    expect(gravatarUrl(" Hamlet@Zulip.com ")).toBe(expected);
    expect(gravatarUrl(" Hamlet@Zulip.com ")).toBe(expected);
    expect(gravatarUrl("hamlet@zulip.com", 500)).toBe(`https://secure.gravatar.com/avatar/${md5("hamlet@zulip.com")}?d=identicon&s=500&version=1`);
    expect(gravatarUrl("othello@zulip.com")).toContain(md5("othello@zulip.com"));
  });
});
