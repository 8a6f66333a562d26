/** The service worker's decisions (assets/app/notify/sw-logic.ts): what a push shows, what comes from the cache, which window a click opens. */
import { describe, expect, test } from "bun:test";
import { cacheName, conversationTag, isAppShell, isOldCache, isOpenMessage, notificationFor, openMessage, strategyFor, windowToFocus, type PushPayload } from "../../assets/app/notify/sw-logic";

const ORIGIN = "https://chat.example.com";
const ICON = "/static/icon-192-0123456789.png";
const othello = { id: 5, name: "Othello, the Moor of Venice" };
const cordelia = { id: 7, name: "Cordelia, Lear's daughter" };

const push = (over: Partial<PushPayload> = {}): PushPayload => ({
  message_id: 42,
  trigger: "private_message",
  sender: { ...othello, avatar_url: "https://secure.gravatar.com/avatar/abc?d=identicon" },
  conversation: { type: "private", people: [othello] },
  content: "Are you there?",
  url: `${ORIGIN}/#narrow/dm/5-Othello/near/42`,
  ...over,
});

describe("what a push shows", () => {
  test("a direct message: the sender as title, the text as body, the sender's picture, and the link to open", () => {
    expect(notificationFor(push(), ICON, ORIGIN)).toEqual({
      title: "Othello, the Moor of Venice",
      options: {
        body: "Are you there?",
        tag: "parley:dm:5",
        icon: "https://secure.gravatar.com/avatar/abc?d=identicon",
        data: { url: `${ORIGIN}/#narrow/dm/5-Othello/near/42`, message_id: 42 },
        renotify: true,
      },
    });
  });

  test("a group direct message names the others; a channel message names the channel and topic", () => {
    expect(notificationFor(push({ conversation: { type: "private", people: [cordelia, othello] } }), ICON, ORIGIN).title).toBe(
      "Othello, the Moor of Venice (to you and Cordelia, Lear's daughter)",
    );
    const inChannel = notificationFor(push({ conversation: { type: "stream", channel_id: 3, channel: "Verona", topic: "Castle" } }), ICON, ORIGIN);
    expect(inChannel.title).toBe("Othello, the Moor of Venice (#Verona › Castle)");
    expect(inChannel.options.tag).toBe("parley:channel:3:castle");
  });

  test("one notification per conversation: the same topic in any case, the same people in any order, share a tag", () => {
    expect(conversationTag({ type: "stream", channel_id: 3, channel: "Verona", topic: "Castle" })).toBe(conversationTag({ type: "stream", channel_id: 3, channel: "Verona", topic: "castle" }));
    expect(conversationTag({ type: "private", people: [cordelia, othello] })).toBe(conversationTag({ type: "private", people: [othello, cordelia] }));
    expect(conversationTag({ type: "private", people: [othello] })).not.toBe(conversationTag({ type: "private", people: [cordelia, othello] }));
    expect(conversationTag({ type: "stream", channel_id: 3, channel: "Verona", topic: "a" })).not.toBe(conversationTag({ type: "stream", channel_id: 4, channel: "Verona", topic: "a" }));
  });

  test("hidden content says who wrote; no avatar falls back to the app's icon", () => {
    const n = notificationFor(push({ content: null, sender: { ...othello, avatar_url: null } }), ICON, ORIGIN);
    expect(n.options.body).toBe("New direct message from Othello, the Moor of Venice");
    expect(n.options.icon).toBe(ICON);
    expect(notificationFor(push({ content: null, conversation: { type: "stream", channel_id: 3, channel: "Verona", topic: "x" } }), ICON, ORIGIN).options.body).toBe("New message");
  });

  test("a link to another site is not followed: the click opens the app instead", () => {
    expect(notificationFor(push({ url: "https://evil.example/#narrow" }), ICON, ORIGIN).options.data.url).toBe(`${ORIGIN}/`);
    expect(notificationFor(push({ url: "javascript:alert(1)" }), ICON, ORIGIN).options.data.url).toBe(`${ORIGIN}/`);
  });

  test("an unreadable push still shows something (browsers require it)", () => {
    for (const data of [null, "text", { message_id: "1" }, { ...push(), conversation: { type: "other" } }]) {
      expect(notificationFor(data, ICON, ORIGIN)).toMatchObject({ title: "Parley", options: { body: "You have a new message.", data: { url: `${ORIGIN}/` } } });
    }
  });
});

describe("what comes from the cache", () => {
  const get = (path: string, mode = "no-cors") => ({ method: "GET", url: ORIGIN + path, mode });
  test("the app's page from the network first; hashed files and the manifest from the cache", () => {
    expect(strategyFor(get("/", "navigate"), ORIGIN)).toBe("network-first");
    expect(strategyFor(get("/static/main-abc.js"), ORIGIN)).toBe("cache-first");
    expect(strategyFor(get("/manifest.webmanifest"), ORIGIN)).toBe("cache-first");
  });

  test("the API, uploads, log-in pages, writes and other sites are left to the network", () => {
    for (const path of ["/json/register", "/api/v1/messages", "/user_uploads/1/ab/x.png", "/login", "/join/abc/", "/sw.js"]) expect(strategyFor(get(path, "navigate"), ORIGIN)).toBe("passthrough");
    expect(strategyFor({ method: "POST", url: `${ORIGIN}/`, mode: "navigate" }, ORIGIN)).toBe("passthrough");
    expect(strategyFor(get("/", "cors"), ORIGIN)).toBe("passthrough");
    expect(strategyFor({ method: "GET", url: "https://secure.gravatar.com/static/x.png", mode: "no-cors" }, ORIGIN)).toBe("passthrough");
  });

  test("only the app's page is kept as the shell, not the login page served at the same address", () => {
    expect(isAppShell('<body>\n  <div id="app" class="app-loading" aria-busy="true"></div>')).toBe(true);
    expect(isAppShell('<form method="post" action="/login">')).toBe(false);
  });

  test("each build has its own cache; only older Parley caches are deleted", () => {
    expect(cacheName("abc")).toBe("parley-shell-abc");
    expect(isOldCache("parley-shell-old", "abc")).toBe(true);
    expect(isOldCache("parley-shell-abc", "abc")).toBe(false);
    expect(isOldCache("someone-elses-cache", "abc")).toBe(false);
  });
});

describe("which window a click opens", () => {
  const w = (url: string, focused = false, visibilityState = "hidden") => ({ url, focused, visibilityState });
  test("the focused Parley window, else a visible one, else any; none means a new window", () => {
    expect(windowToFocus([w(`${ORIGIN}/#inbox`), w(`${ORIGIN}/#recent`, true, "visible")], ORIGIN)).toBe(1);
    expect(windowToFocus([w(`${ORIGIN}/#inbox`), w(`${ORIGIN}/#recent`, false, "visible")], ORIGIN)).toBe(1);
    expect(windowToFocus([w(`${ORIGIN}/#inbox`), w(`${ORIGIN}/#recent`)], ORIGIN)).toBe(0);
    expect(windowToFocus([], ORIGIN)).toBe(-1);
  });

  test("windows of other sites and Parley's other pages (log in, uploads) are not taken", () => {
    expect(windowToFocus([w("https://other.example/", true, "visible"), w(`${ORIGIN}/login`, true, "visible"), w(`${ORIGIN}/user_uploads/x.pdf`)], ORIGIN)).toBe(-1);
  });

  test("the window is told which conversation to open", () => {
    expect(isOpenMessage(openMessage(`${ORIGIN}/#narrow/dm/5-Othello`))).toBe(true);
    expect(isOpenMessage({ type: "other", url: "x" })).toBe(false);
    expect(isOpenMessage(null)).toBe(false);
  });
});
