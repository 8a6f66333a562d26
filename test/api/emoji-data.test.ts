import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const get = (url: string, headers: Record<string, string> = {}) => s.server.handle(new Request(url, { headers }));

/**
 * zulip-flutter's ServerEmojiData.fromJson (lib/api/route/realm.g.dart): `code_to_names` must be a map
 * of lists of strings, or the app retries forever without emoji names.
 */
function decodeLikeZulipFlutter(json: unknown): Map<string, string[]> {
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new Error("not a JSON object");
  const codeToNames = (json as Record<string, unknown>).code_to_names;
  if (typeof codeToNames !== "object" || codeToNames === null || Array.isArray(codeToNames)) throw new Error("code_to_names is not a map");
  const out = new Map<string, string[]>();
  for (const [k, v] of Object.entries(codeToNames)) {
    if (!Array.isArray(v) || !v.every((n) => typeof n === "string")) throw new Error(`${k}: not a list of strings`);
    out.set(k, v);
  }
  return out;
}

async function emojiDataUrl(): Promise<string> {
  const r = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm"] })).success();
  return r.server_emoji_data_url;
}

describe("server_emoji_data_url and Zulip's emoji data document", () => {
  test("/register gives an absolute, content-hashed URL on the server (zulip-flutter fetches it as it is)", async () => {
    const url = new URL(await emojiDataUrl());
    expect(url.origin).toBe("http://parley.test");
    expect(url.pathname).toMatch(/^\/static\/generated\/emoji\/emoji_api\.[0-9a-f]{12}\.json$/);
  });

  test("the URL answers without credentials with Zulip's code_to_names, cacheable for good", async () => {
    const res = await get(await emojiDataUrl(), { "user-agent": "ZulipFlutter/30.0.0" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = await res.json();
    expect(Object.keys(body)).toEqual(["code_to_names"]);
    const names = decodeLikeZulipFlutter(body);
    expect(names.size).toBe(1875);
    // zulip-flutter's popular emoji, with Zulip 10's names (its serverEmojiDataPopularLegacy).
    expect(names.get("1f44d")).toEqual(["+1", "thumbs_up", "like"]);
    expect(names.get("1f389")).toEqual(["tada"]);
    expect(names.get("1f642")).toEqual(["smile"]);
    expect(names.get("2764")).toEqual(["heart", "love", "love_you"]);
    expect(names.get("1f6e0")).toEqual(["working_on_it", "hammer_and_wrench", "tools"]);
    expect(names.get("1f419")).toEqual(["octopus"]);
  });

  test("the hash in the URL is the document's: another hash is not found", async () => {
    const url = new URL(await emojiDataUrl());
    const body = await (await get(url.href)).text();
    const md5 = new Bun.CryptoHasher("md5").update(body).digest("hex");
    expect(url.pathname).toBe(`/static/generated/emoji/emoji_api.${md5.slice(0, 12)}.json`);
    expect((await get("http://parley.test/static/generated/emoji/emoji_api.000000000000.json")).status).toBe(404);
  });

  test("a client that accepts gzip gets it compressed; a known ETag gets 304", async () => {
    const url = await emojiDataUrl();
    const plain = await (await get(url)).text();
    const zipped = await get(url, { "accept-encoding": "gzip, deflate" });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toBe("accept-encoding");
    const bytes = new Uint8Array(await zipped.arrayBuffer());
    expect(bytes.length).toBeLessThan(plain.length / 2);
    expect(new TextDecoder().decode(Bun.gunzipSync(bytes))).toBe(plain);
    const etag = zipped.headers.get("etag")!;
    const again = await get(url, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  test("Zulip's unhashed path serves the same document, revalidated on each use", async () => {
    const hashed = await (await get(await emojiDataUrl())).text();
    const res = await get("http://parley.test/static/generated/emoji/emoji_api.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(await res.text()).toBe(hashed);
  });

  test("every name in the document is one reactions accept with its code", async () => {
    const names = decodeLikeZulipFlutter(await (await get(await emojiDataUrl())).json());
    const id = (await s.users.hamlet.client.post("/messages", { type: "direct", to: JSON.stringify([s.users.othello.id]), content: "x" })).success().id;
    // A sample across the table: the first name and the last alias of every 150th emoji.
    const codes = [...names.keys()].filter((_, i) => i % 150 === 0);
    for (const code of codes) {
      for (const name of new Set([names.get(code)![0]!, names.get(code)!.at(-1)!])) {
        (await s.users.othello.client.post(`/messages/${id}/reactions`, { emoji_name: name, emoji_code: code, reaction_type: "unicode_emoji" })).success();
        (await s.users.othello.client.delete(`/messages/${id}/reactions`, { emoji_name: name, emoji_code: code, reaction_type: "unicode_emoji" })).success();
      }
    }
  });
});

describe("images Zulip's HTML names by fixed paths", () => {
  test("the :zulip: emoji a rendered message points at is a PNG served without credentials (zulip-flutter's kZulipEmojiUrl decodes it)", async () => {
    const { rendered } = (await s.users.hamlet.client.post("/messages/render", { content: ":zulip:" })).success();
    const src = /<img[^>]* src="([^"]+)"/.exec(rendered)?.[1];
    expect(src).toBe("/static/generated/emoji/images/emoji/unicode/zulip.png");
    const res = await get(`http://parley.test${src}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]); // the PNG signature
    expect(bytes.length).toBeGreaterThan(100);
  });

  test("the placeholder of a thumbnail still being made is an SVG image", async () => {
    const res = await get("http://parley.test/static/images/loading/loader-black.svg");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(await res.text()).toStartWith("<svg ");
  });
});
