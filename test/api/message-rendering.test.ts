import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { flagsOf, messageRow, sendDm, sendStream } from "../helpers/messages";
import { flagList } from "../../src/domain/flags";
import { makePng, pathIdOf, upload } from "../helpers/uploads";
import { waitForThumbnails } from "../../src/actions/uploads";
import { uploadsOf } from "../../src/uploads/runtime";
import { writeFile } from "node:fs/promises";

let s: TestServer;
let denmark: number;
const TRACKER = { pattern: "#(?P<id>[0-9]+)", url_template: "https://tracker.example/{id}" };
const bug42 = [{ text: "#42", url: "https://tracker.example/42" }];

beforeAll(async () => {
  s = await startServer();
  denmark = await createChannel(s, "iago", "Denmark", { subscribers: ["hamlet", "othello", "cordelia"] });
  (await s.users.iago.client.post("/realm/filters", TRACKER)).success();
});
afterAll(() => s.close());

describe("linkifiers in message content", () => {
  test("a sent message renders the organization's linkifiers as Zulip's anchors", async () => {
    const id = await sendStream(s, "hamlet", "Denmark", "tracker", "see #42, not `#43`");
    const row = await messageRow(s, id);
    expect(row!.rendered_content).toBe('<p>see <a href="https://tracker.example/42">#42</a>, not <code>#43</code></p>');
    expect(row!.has_link).toBe(1);
  });

  test("POST /messages/render and content edits use them too", async () => {
    const r = (await s.users.hamlet.client.post("/messages/render", { content: "see #7" })).success();
    expect(r.rendered).toBe('<p>see <a href="https://tracker.example/7">#7</a></p>');
    const id = await sendStream(s, "hamlet", "Denmark", "tracker", "plain");
    (await s.users.hamlet.client.patch(`/messages/${id}`, { content: "now #8" })).success();
    expect((await messageRow(s, id))!.rendered_content).toBe('<p>now <a href="https://tracker.example/8">#8</a></p>');
  });

  test("a linkifier added later applies to messages sent after it", async () => {
    (await s.users.iago.client.post("/realm/filters", { pattern: "PR(?P<n>[0-9]+)", url_template: "https://pr.example/{n}" })).success();
    const id = await sendStream(s, "hamlet", "Denmark", "tracker", "PR5");
    expect((await messageRow(s, id))!.rendered_content).toBe('<p><a href="https://pr.example/5">PR5</a></p>');
  });
});

describe("topic_links", () => {
  test("message events carry the topic's links with the organization's linkifiers", async () => {
    let id = 0;
    const ev = await s.captureEvents(async () => {
      id = await sendStream(s, "hamlet", "Denmark", "bug #42", "broken");
    });
    for (const who of ["hamlet", "othello", "cordelia"] as const) {
      const m = ev.of(who).find((e) => e.type === "message")! as any;
      expect(m.message.id).toBe(id);
      expect(m.message.topic_links).toEqual(bug42);
    }
  });

  test("GET /messages and GET /messages/{id} carry them", async () => {
    const id = await sendStream(s, "hamlet", "Denmark", "bug #42", "still broken");
    const got = (
      await s.users.othello.client.get("/messages", { anchor: id, num_before: 0, num_after: 0, narrow: [{ operator: "channel", operand: denmark }] })
    ).success();
    expect(got.messages).toHaveLength(1);
    expect(got.messages[0].topic_links).toEqual(bug42);
    expect((await s.users.othello.client.get(`/messages/${id}`)).success().message.topic_links).toEqual(bug42);
    // Direct messages have none.
    const dm = (await s.users.hamlet.client.post("/messages", { type: "direct", to: JSON.stringify([s.users.othello.id]), content: "#42" })).success().id;
    expect((await s.users.othello.client.get(`/messages/${dm}`)).success().message.topic_links).toEqual([]);
  });

  test("a topic move's update_message event carries the new topic's links", async () => {
    const id = await sendStream(s, "hamlet", "Denmark", "some bug", "it is broken");
    const ev = await s.captureEvents(async () => {
      (await s.users.hamlet.client.patch(`/messages/${id}`, { topic: "bug #42 at https://example.com/x", propagate_mode: "change_one" })).success();
    });
    for (const who of ["hamlet", "othello", "cordelia"] as const) {
      const u = ev.of(who).find((e) => e.type === "update_message")!;
      expect(u.subject).toBe("bug #42 at https://example.com/x");
      expect(u.topic_links).toEqual([...bug42, { text: "https://example.com/x", url: "https://example.com/x" }]);
    }
  });

  test("a removed linkifier no longer links topics", async () => {
    const list = (await s.users.iago.client.get("/realm/linkifiers")).success().linkifiers as { id: number; pattern: string }[];
    const tracker = list.find((l) => l.pattern === TRACKER.pattern)!;
    (await s.users.iago.client.delete(`/realm/filters/${tracker.id}`)).success();
    try {
      const id = await sendStream(s, "hamlet", "Denmark", "bug #42", "again");
      expect((await s.users.othello.client.get(`/messages/${id}`)).success().message.topic_links).toEqual([]);
      expect((await messageRow(s, id))!.rendered_content).toBe("<p>again</p>");
    } finally {
      (await s.users.iago.client.post("/realm/filters", TRACKER)).success();
    }
  });
});

/** Keeps the thumbnail worker busy (both its slots) until the returned function is called. */
function holdThumbnails(): () => void {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  for (let i = 0; i < 2; i++) uploadsOf(s.app).thumbnails.push(() => gate);
  return release;
}

const imageRow = (url: string) =>
  s.app.db.get<{ thumbnail_state: string }>("SELECT thumbnail_state FROM attachments WHERE path_id = ?", [pathIdOf(url)]);

describe("uploaded-image previews", () => {
  test("a message sent before the thumbnail exists shows Zulip's placeholder, then is re-rendered for its holders", async () => {
    const release = holdThumbnails();
    let id = 0;
    let url = "";
    try {
      url = (await upload(s, "hamlet", "photo.png", await makePng(1200, 900), "image/png")).url;
      id = await sendStream(s, "hamlet", "Denmark", "pictures", `look [photo.png](${url})`);
      expect((await imageRow(url))!.thumbnail_state).toBe("pending");
    } finally {
      release();
    }
    const preview = (img: string) => `<p>look <a href="${url}">photo.png</a></p>\n<div class="message_inline_image"><a href="${url}" title="photo.png">${img}</a></div>`;
    const placeholder = preview(
      '<img class="image-loading-placeholder" data-original-dimensions="1200x900" data-original-content-type="image/png" src="/static/images/loading/loader-black.svg">',
    );
    const thumbnail = preview(`<img data-original-dimensions="1200x900" data-original-content-type="image/png" src="/user_uploads/thumbnail/${url.slice("/user_uploads/".length)}/840x560.webp">`);
    expect((await messageRow(s, id))!.rendered_content).toBe(placeholder);
    const ev = await s.captureEvents(() => waitForThumbnails(s.app));
    expect((await imageRow(url))!.thumbnail_state).toBe("done");
    const row = await messageRow(s, id);
    expect(row).toMatchObject({ rendered_content: thumbnail, content: `look [photo.png](${url})`, last_edit_time: null, edit_history: null });
    for (const who of ["iago", "hamlet", "othello", "cordelia"] as const) {
      const updates = ev.of(who).filter((e) => e.type === "update_message");
      expect(updates).toHaveLength(1);
      const { id: _eventId, edit_timestamp, ...rest } = updates[0] as any;
      expect(edit_timestamp).toBe(Math.floor(s.clock.now() / 1000));
      expect(rest).toEqual({
        type: "update_message",
        user_id: null,
        message_id: id,
        message_ids: [id],
        content: `look [photo.png](${url})`,
        rendered_content: thumbnail,
        rendering_only: true,
        flags: flagList((await flagsOf(s, who, id))!),
      });
    }
    expect(ev.of("shiva").filter((e) => e.type === "update_message")).toEqual([]);
    // GET /messages serves the new rendering.
    expect((await s.users.othello.client.get(`/messages/${id}`)).success().message.content).toBe(thumbnail);
  });

  test("a direct message's update goes to its participants only", async () => {
    const release = holdThumbnails();
    let id = 0;
    let url = "";
    try {
      url = (await upload(s, "hamlet", "dm.png", await makePng(200, 100), "image/png")).url;
      id = await sendDm(s, "hamlet", ["othello"], `[dm.png](${url})`);
    } finally {
      release();
    }
    expect((await messageRow(s, id))!.rendered_content).toContain('class="image-loading-placeholder"');
    const ev = await s.captureEvents(() => waitForThumbnails(s.app));
    const html = (await messageRow(s, id))!.rendered_content;
    expect(html).toContain(`src="/user_uploads/thumbnail/${url.slice("/user_uploads/".length)}/840x560.webp"`);
    expect(html).not.toContain("image-loading-placeholder");
    for (const who of ["hamlet", "othello"] as const) {
      expect(ev.of(who).filter((e) => e.type === "update_message").map((e: any) => [e.message_id, e.rendering_only, e.rendered_content])).toEqual([[id, true, html]]);
    }
    for (const who of ["iago", "cordelia", "shiva"] as const) expect(ev.of(who).filter((e) => e.type === "update_message")).toEqual([]);
  });

  test("a message sent once the thumbnail exists shows it at once, and nothing is re-rendered", async () => {
    const { url } = await upload(s, "hamlet", "ready.png", await makePng(300, 200), "image/png");
    await waitForThumbnails(s.app);
    let id = 0;
    const ev = await s.captureEvents(async () => {
      id = await sendStream(s, "hamlet", "Denmark", "pictures", `[ready.png](${url})`);
      await waitForThumbnails(s.app);
    });
    expect((await messageRow(s, id))!.rendered_content).toContain(`data-original-dimensions="300x200" data-original-content-type="image/png" src="/user_uploads/thumbnail/`);
    expect(ev.of("othello").filter((e) => e.type === "update_message")).toEqual([]);
  });

  test("when thumbnailing fails the preview is removed with a rendering-only update", async () => {
    const release = holdThumbnails();
    let id = 0;
    let url = "";
    try {
      url = (await upload(s, "hamlet", "doomed.png", await makePng(60, 40), "image/png")).url;
      id = await sendStream(s, "hamlet", "Denmark", "pictures", `[doomed.png](${url})`);
      // The file is damaged before the worker gets to it.
      await writeFile(uploadsOf(s.app).storage.filePath(pathIdOf(url))!, "not a png any more");
    } finally {
      release();
    }
    expect((await messageRow(s, id))!.rendered_content).toContain('class="image-loading-placeholder"');
    const ev = await s.captureEvents(() => waitForThumbnails(s.app));
    expect((await imageRow(url))!.thumbnail_state).toBe("failed");
    const html = `<p><a href="${url}">doomed.png</a></p>`;
    expect((await messageRow(s, id))!.rendered_content).toBe(html);
    expect(ev.of("othello").filter((e) => e.type === "update_message").map((e: any) => [e.message_id, e.rendering_only, e.user_id, e.rendered_content])).toEqual([[id, true, null, html]]);
  });

  test("a message edited before the thumbnail is done keeps its edited rendering", async () => {
    const release = holdThumbnails();
    let id = 0;
    try {
      const { url } = await upload(s, "hamlet", "edited.png", await makePng(100, 100), "image/png");
      id = await sendStream(s, "hamlet", "Denmark", "pictures", `[edited.png](${url})`);
      (await s.users.hamlet.client.patch(`/messages/${id}`, { content: "no picture after all" })).success();
    } finally {
      release();
    }
    const ev = await s.captureEvents(() => waitForThumbnails(s.app));
    expect((await messageRow(s, id))!.rendered_content).toBe("<p>no picture after all</p>");
    expect(ev.of("othello").filter((e) => e.type === "update_message")).toEqual([]);
  });
});
