/**
 * The start-up requests the page's inline script sends: the first view's parameters are the very ones
 * the view asks with as it opens (so it takes that answer), and an answer read early is given to the
 * app exactly as api() gives one (errors, a 401 sending the person to the login page).
 */
import { describe, expect, test } from "bun:test";
import { fetchMessages, firstViewParams, openingFetch, recentFetch } from "../../assets/app/api/calls";
import { fetchEarly } from "../../assets/app/api/first-messages";
import { answerOf, ApiError, NetworkError, readAnswer, whenSignedOut } from "../../assets/app/api/http";
import type { Narrow } from "../../assets/app/state/narrow";

const answer = (ids: number[]) => ({ result: "success", messages: ids.map((id) => ({ id })), found_oldest: false, found_newest: true });

describe("the first view's parameters, sent before the bundle has loaded", () => {
  const cases: [string, Narrow, number?][] = [
    ["#narrow/channel/12-general/topic/lunch", { kind: "topic", stream_id: 12, topic: "lunch" }],
    ["#narrow/channel/12-general/topic/lunch/near/77", { kind: "topic", stream_id: 12, topic: "lunch" }, 77],
    ["#narrow/stream/12-general", { kind: "channel", stream_id: 12 }],
    ["#feed", { kind: "feed" }],
    ["#narrow/is/starred", { kind: "starred" }],
  ];
  for (const [hash, narrow, near] of cases) {
    test(`are the ones the view opening ${hash} asks with, so it takes that answer`, async () => {
      fetchEarly(firstViewParams(hash)!, async () => answer([1, 2]) as never);
      const got = await fetchMessages(...openingFetch(narrow, near));
      expect(got.messages.map((m) => m.id)).toEqual([1, 2]);
      expect(got.readBeforeQueue).toBe(true);
    });
  }

  test("are Recent conversations' own for #recent", async () => {
    fetchEarly(firstViewParams("#recent")!, async () => answer([5]) as never);
    const got = await fetchMessages(...recentFetch());
    expect(got.messages.map((m) => m.id)).toEqual([5]);
    expect(got.readBeforeQueue).toBe(true);
  });

  test("are none for a view that needs /register's answer first", () => {
    for (const hash of ["", "#inbox", "#narrow/channel/general", "#narrow/dm/5-Hamlet", "#narrow/search/ghost", "#settings/profile"]) {
      expect([hash, firstViewParams(hash)]).toEqual([hash, null]);
    }
  });
});

describe("an answer read as it came (the start-up script's), given to the app", () => {
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

  test("a success is its body", async () => {
    expect(await answerOf(readAnswer(json(200, { result: "success", queue_id: "q1" })))).toEqual({ result: "success", queue_id: "q1" });
  });

  test("Zulip's error envelope is an ApiError with its code and status", async () => {
    const e = await answerOf(readAnswer(json(400, { result: "error", msg: "Bad narrow", code: "BAD_NARROW" }))).catch((e) => e);
    expect(e).toBeInstanceOf(ApiError);
    expect([e.message, e.code, e.status]).toEqual(["Bad narrow", "BAD_NARROW", 400]);
  });

  test("a request that never reached the server, or a page that is not the API, is a NetworkError", async () => {
    const unreachable = await answerOf(Promise.reject(new TypeError("Failed to fetch"))).catch((e) => e);
    expect(unreachable).toBeInstanceOf(NetworkError);
    expect(unreachable.message).toBe("Parley's server cannot be reached.");
    const proxy = await answerOf(readAnswer(new Response("<html>Bad gateway</html>", { status: 502 }))).catch((e) => e);
    expect(proxy).toBeInstanceOf(NetworkError);
    expect(proxy.message).toBe("Parley's server answered with an error (502).");
  });

  test("a 401 sends the person to the login page, once, and is an ApiError", async () => {
    let signedOut = 0;
    const before = whenSignedOut(() => signedOut++);
    try {
      const body = { result: "error", msg: "Not logged in: API authentication or user session required", code: "UNAUTHORIZED" };
      const e = await answerOf(readAnswer(json(401, body))).catch((e) => e);
      expect(e).toBeInstanceOf(ApiError);
      expect(e.status).toBe(401);
      await answerOf(readAnswer(json(401, body))).catch(() => {});
      expect(signedOut).toBe(1);
    } finally {
      whenSignedOut(before);
    }
  });
});
