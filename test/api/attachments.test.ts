import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { applyAttachmentEffects, deleteAttachmentsOfDeletedMessages, syncMessageAttachments } from "../../src/actions/attachments";
import { deleteUnreferencedUploads, waitForThumbnails } from "../../src/actions/uploads";
import { uploadPathsIn } from "../../src/uploads/paths";
import { createChannel } from "../helpers/channels";
import { startServer, type TestServer } from "../helpers/server";
import { fetchRaw, linkInMessage, makePng, pathIdOf, upload } from "../helpers/uploads";

let s: TestServer;
let streamId: number;
beforeAll(async () => {
  s = await startServer();
  streamId = await createChannel(s, "iago", "attachments", { subscribers: ["hamlet", "othello"] });
});
afterAll(() => s.close());

const fileExists = (pathId: string) => existsSync(join(s.app.config.storage.uploads_dir, pathId));
const row = (pathId: string) => s.app.db.get<any>("SELECT * FROM attachments WHERE path_id = ?", [pathId]);
const totalSize = async () => (await s.app.db.get<{ n: number }>("SELECT coalesce(sum(size), 0) AS n FROM attachments"))!.n;

/** Deletes messages the way the messages area does: attachments first (same transaction), then rows. */
async function deleteMessages(ids: number[]) {
  const effects = await s.app.db.tx(async (sql) => {
    const effects = await deleteAttachmentsOfDeletedMessages(sql, s.app, ids);
    await sql.run(`DELETE FROM messages WHERE id IN (${ids.map(() => "?").join(",")})`, ids);
    return effects;
  });
  await applyAttachmentEffects(s.app, effects);
}

describe("GET /attachments", () => {
  test("lists the caller's own uploads with the messages linking them and the organization's usage", async () => {
    const a = await upload(s, "cordelia", "one.txt", "1111");
    const b = await upload(s, "cordelia", "two.txt", "22");
    await upload(s, "othello", "not-mine.txt", "333");
    const m1 = await linkInMessage(s, { sender: "cordelia", dmWith: ["hamlet"], holders: ["cordelia", "hamlet"], paths: [pathIdOf(a.url)], dateSent: 1_700_000_000 });
    const m2 = await linkInMessage(s, { sender: "cordelia", dmWith: ["othello"], holders: ["cordelia", "othello"], paths: [pathIdOf(a.url)], dateSent: 1_700_000_100 });
    const body = (await s.users.cordelia.client.get("/attachments")).success();
    expect(body.upload_space_used).toBe(await totalSize());
    expect(body.attachments).toEqual([
      {
        id: (await row(pathIdOf(a.url))).id,
        name: "one.txt",
        path_id: pathIdOf(a.url),
        size: 4,
        create_time: Math.floor(s.clock.now() / 1000) * 1000,
        messages: [
          { id: m1.messageId, date_sent: 1_700_000_000_000 },
          { id: m2.messageId, date_sent: 1_700_000_100_000 },
        ],
      },
      { id: (await row(pathIdOf(b.url))).id, name: "two.txt", path_id: pathIdOf(b.url), size: 2, create_time: Math.floor(s.clock.now() / 1000) * 1000, messages: [] },
    ]);
  });

  test("needs credentials", async () => {
    (await s.anonymous.get("/attachments")).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
  });
});

describe("claiming uploads when a message links them", () => {
  test("the sender's own uploads are linked and the owner gets an update event", async () => {
    const { url } = await upload(s, "hamlet", "claim.txt", "mine");
    const pathId = pathIdOf(url);
    let result: Awaited<ReturnType<typeof linkInMessage>>;
    const events = await s.captureEvents(async () => {
      result = await linkInMessage(s, { sender: "hamlet", streamId, holders: ["iago", "hamlet", "othello"], paths: [pathId] });
    });
    const a = await row(pathId);
    expect(result!.claimed).toEqual([a.id]);
    expect(a.is_realm_public).toBe(1);
    expect(await s.app.db.all("SELECT message_id FROM attachment_messages WHERE attachment_id = ?", [a.id])).toEqual([{ message_id: result!.messageId }]);
    expect(events.of("hamlet")).toEqual([
      {
        type: "attachment",
        op: "update",
        attachment: { id: a.id, name: "claim.txt", path_id: pathId, size: 4, create_time: expect.any(Number), messages: [{ id: result!.messageId, date_sent: expect.any(Number) }] },
        upload_space_used: await totalSize(),
      },
    ]);
    expect(events.of("othello")).toEqual([]);
  });

  test("unknown paths and other people's uploads the sender cannot read are ignored", async () => {
    const theirs = await upload(s, "othello", "theirs.txt", "private");
    const r = await linkInMessage(s, {
      sender: "hamlet",
      streamId,
      holders: ["hamlet"],
      paths: [pathIdOf(theirs.url), `${s.app.realm!.id}/ab/AAAAAAAAAAAAAAAAAAAAAAAA/ghost.txt`],
    });
    expect(r.claimed).toEqual([]);
    expect(await s.app.db.all("SELECT * FROM attachment_messages WHERE message_id = ?", [r.messageId])).toEqual([]);
    expect((await fetchRaw(s, theirs.url, { as: "hamlet" })).status).toBe(403);
  });

  test("a file shared with the sender may be shared again (Zulip's re-share rule)", async () => {
    const { url } = await upload(s, "othello", "reshare.txt", "pass it on");
    const pathId = pathIdOf(url);
    await linkInMessage(s, { sender: "othello", dmWith: ["hamlet"], holders: ["othello", "hamlet"], paths: [pathId] });
    expect((await fetchRaw(s, url, { as: "cordelia" })).status).toBe(403);
    const events = await s.captureEvents(async () => {
      const r = await linkInMessage(s, { sender: "hamlet", dmWith: ["cordelia"], holders: ["hamlet", "cordelia"], paths: [pathId] });
      expect(r.claimed).toEqual([(await row(pathId)).id]);
    });
    expect((await fetchRaw(s, url, { as: "cordelia" })).status).toBe(200);
    // The owner hears about the new message linking their file.
    expect(events.of("othello").map((e: any) => [e.type, e.op, e.attachment.messages.length])).toEqual([["attachment", "update", 2]]);
  });

  test("uploadPathsIn finds upload links in content, relative or absolute, once each", () => {
    const realm = s.app.realm!.id;
    const p1 = `${realm}/ab/AAAAAAAAAAAAAAAAAAAAAAAA/a.txt`;
    const p2 = `${realm}/cd/BBBBBBBBBBBBBBBBBBBBBBBB/résumé.pdf`;
    const content = `[a](/user_uploads/${p1}) and [again](http://parley.test/user_uploads/${p1}) [b](user_uploads/${realm}/cd/BBBBBBBBBBBBBBBBBBBBBBBB/r%C3%A9sum%C3%A9.pdf) ![t](/user_uploads/thumbnail/${p1}/840x560.webp) /user_uploads/1/../../etc`;
    expect(uploadPathsIn(content)).toEqual([p1, p2]);
  });

  test("editing a message links new uploads and unlinks removed ones", async () => {
    const a = await upload(s, "hamlet", "edit-a.txt", "a");
    const b = await upload(s, "hamlet", "edit-b.txt", "b");
    const { messageId } = await linkInMessage(s, { sender: "hamlet", streamId, holders: ["hamlet"], paths: [pathIdOf(a.url)] });
    const effects = await s.app.db.tx((sql) =>
      syncMessageAttachments(sql, s.app, { messageId, senderId: s.users.hamlet.id, uploadPaths: [pathIdOf(b.url)], isRealmPublic: true, isWebPublic: false }),
    );
    const events = await s.captureEvents(() => applyAttachmentEffects(s.app, effects.effects));
    const linked = await s.app.db.all<{ path_id: string }>("SELECT a.path_id FROM attachment_messages am JOIN attachments a ON a.id = am.attachment_id WHERE am.message_id = ?", [messageId]);
    expect(linked.map((r) => r.path_id)).toEqual([pathIdOf(b.url)]);
    expect(await row(pathIdOf(a.url))).toBeTruthy(); // unlinked, not deleted
    expect(events.of("hamlet").map((e: any) => [e.op, e.attachment.name, e.attachment.messages.length]).sort()).toEqual([
      ["update", "edit-a.txt", 0],
      ["update", "edit-b.txt", 1],
    ]);
  });
});

describe("DELETE /attachments/{attachment_id}", () => {
  test("the owner deletes their upload: the row, the file and its thumbnails go, with a remove event", async () => {
    const { url } = await upload(s, "hamlet", "gone.png", await makePng(30, 20));
    await waitForThumbnails(s.app);
    const pathId = pathIdOf(url);
    const a = await row(pathId);
    expect(existsSync(join(s.app.config.storage.uploads_dir, "thumbnail", pathId, "840x560.webp"))).toBe(true);
    const events = await s.captureEvents(async () => {
      (await s.users.hamlet.client.delete(`/attachments/${a.id}`)).success();
    });
    expect(await row(pathId)).toBeUndefined();
    expect(fileExists(pathId)).toBe(false);
    expect(existsSync(join(s.app.config.storage.uploads_dir, "thumbnail", pathId))).toBe(false);
    expect(events.of("hamlet")).toEqual([{ type: "attachment", op: "remove", attachment: { id: a.id }, upload_space_used: await totalSize() }]);
    expect((await fetchRaw(s, url, { as: "hamlet" })).status).toBe(404);
  });

  test("someone else's, a missing and a malformed id are BAD_REQUEST 'Invalid attachment'", async () => {
    const { url } = await upload(s, "othello", "keep.txt", "keep");
    const a = await row(pathIdOf(url));
    (await s.users.hamlet.client.delete(`/attachments/${a.id}`)).error("Invalid attachment", "BAD_REQUEST", 400);
    (await s.users.iago.client.delete(`/attachments/${a.id}`)).error("Invalid attachment", "BAD_REQUEST", 400);
    (await s.users.hamlet.client.delete("/attachments/999999")).error("Invalid attachment", "BAD_REQUEST", 400);
    (await s.users.hamlet.client.delete("/attachments/abc")).error("Invalid attachment", "BAD_REQUEST", 400);
    (await s.users.hamlet.client.delete("/attachments/-1")).error("Invalid attachment", "BAD_REQUEST", 400);
    expect(await row(pathIdOf(url))).toBeTruthy();
    expect(fileExists(pathIdOf(url))).toBe(true);
  });

  test("not logged in is UNAUTHORIZED", async () => {
    const { url } = await upload(s, "othello", "keep2.txt", "keep");
    const a = await row(pathIdOf(url));
    (await s.anonymous.delete(`/attachments/${a.id}`)).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
    expect(await row(pathIdOf(url))).toBeTruthy();
  });
});

describe("deleting messages", () => {
  test("an attachment goes with the last message that links it", async () => {
    const { url } = await upload(s, "hamlet", "shared-twice.txt", "twice");
    const pathId = pathIdOf(url);
    const m1 = await linkInMessage(s, { sender: "hamlet", streamId, holders: ["hamlet"], paths: [pathId] });
    const m2 = await linkInMessage(s, { sender: "hamlet", streamId, holders: ["hamlet"], paths: [pathId] });
    const id = (await row(pathId)).id;

    let events = await s.captureEvents(() => deleteMessages([m1.messageId]));
    expect(await row(pathId)).toBeTruthy();
    expect(fileExists(pathId)).toBe(true);
    expect(events.of("hamlet")).toEqual([
      { type: "attachment", op: "update", attachment: expect.objectContaining({ id, messages: [{ id: m2.messageId, date_sent: expect.any(Number) }] }), upload_space_used: await totalSize() },
    ]);

    events = await s.captureEvents(() => deleteMessages([m2.messageId]));
    expect(await row(pathId)).toBeUndefined();
    expect(fileExists(pathId)).toBe(false);
    expect(events.of("hamlet")).toEqual([{ type: "attachment", op: "remove", attachment: { id }, upload_space_used: await totalSize() }]);
  });

  test("deleting several messages at once, attachments linked only among them go", async () => {
    const a = await upload(s, "hamlet", "batch-a.txt", "a");
    const b = await upload(s, "hamlet", "batch-b.txt", "b");
    const m1 = await linkInMessage(s, { sender: "hamlet", streamId, holders: ["hamlet"], paths: [pathIdOf(a.url), pathIdOf(b.url)] });
    const m2 = await linkInMessage(s, { sender: "hamlet", streamId, holders: ["hamlet"], paths: [pathIdOf(a.url)] });
    const m3 = await linkInMessage(s, { sender: "hamlet", streamId, holders: ["hamlet"], paths: [pathIdOf(b.url)] });
    await deleteMessages([m1.messageId, m2.messageId]);
    expect(await row(pathIdOf(a.url))).toBeUndefined();
    expect(await row(pathIdOf(b.url))).toBeTruthy();
    expect(fileExists(pathIdOf(a.url))).toBe(false);
    await deleteMessages([m3.messageId]);
    expect(await row(pathIdOf(b.url))).toBeUndefined();
  });

  test("a message without attachments changes nothing", async () => {
    const effects = await s.app.db.tx((sql) => deleteAttachmentsOfDeletedMessages(sql, s.app, [987654]));
    expect(effects).toEqual({ events: [], files: [] });
  });
});

describe("the unreferenced-upload clean-up job", () => {
  test("deletes uploads never used in a message once they are older than unreferenced_upload_days", async () => {
    const old = await upload(s, "cordelia", "old-unused.txt", "old");
    const oldUsed = await upload(s, "cordelia", "old-used.txt", "used");
    const oldScheduled = await upload(s, "cordelia", "old-scheduled.txt", "later");
    await linkInMessage(s, { sender: "cordelia", streamId, holders: ["cordelia"], paths: [pathIdOf(oldUsed.url)] });
    await s.app.db.run(
      "INSERT INTO scheduled_messages (realm_id, sender_id, type, stream_id, topic, content, rendered_content, scheduled_timestamp, created) VALUES (?, ?, 'stream', ?, 't', ?, '', ?, ?)",
      [s.app.realm!.id, s.users.cordelia.id, streamId, `see [f](${oldScheduled.url})`, s.clock.now() / 1000 + 30 * 86400, s.clock.now() / 1000],
    );
    s.clock.advance(20 * 86400_000);
    const recent = await upload(s, "cordelia", "recent.txt", "new");
    expect(await deleteUnreferencedUploads(s.app)).toBe(0);
    s.clock.advance(2 * 86400_000);
    const events = await s.captureEvents(async () => {
      expect(await deleteUnreferencedUploads(s.app)).toBeGreaterThanOrEqual(1);
    });
    expect(await row(pathIdOf(old.url))).toBeUndefined();
    expect(fileExists(pathIdOf(old.url))).toBe(false);
    expect(await row(pathIdOf(oldUsed.url))).toBeTruthy();
    expect(await row(pathIdOf(oldScheduled.url))).toBeTruthy();
    expect(await row(pathIdOf(recent.url))).toBeTruthy();
    expect(events.of("cordelia").some((e: any) => e.op === "remove")).toBe(true);
  });
});

describe("end to end with POST /messages", () => {
  test("sending a message that links an upload shares it; deleting the message deletes the upload", async () => {
    const { url } = await upload(s, "hamlet", "e2e.png", await makePng(60, 40));
    const pathId = pathIdOf(url);
    await waitForThumbnails(s.app);
    expect((await fetchRaw(s, url, { as: "othello" })).status).toBe(403);
    let id = 0;
    const events = await s.captureEvents(async () => {
      id = (await s.users.hamlet.client.post("/messages", { type: "stream", to: "attachments", topic: "files", content: `look [e2e.png](${url})` })).success().id;
    });
    expect(events.of("hamlet").some((e: any) => e.type === "attachment" && e.op === "update" && e.attachment.messages[0]?.id === id)).toBe(true);
    expect((await fetchRaw(s, url, { as: "othello" })).status).toBe(200);
    expect((await fetchRaw(s, `/user_uploads/thumbnail/${pathId}/840x560.webp`, { as: "othello" })).status).toBe(200);
    const mine = (await s.users.hamlet.client.get("/attachments")).success().attachments.find((a: any) => a.path_id === pathId);
    expect(mine.messages.map((m: any) => m.id)).toEqual([id]);
    (await s.users.hamlet.client.delete(`/messages/${id}`)).success();
    expect(await row(pathId)).toBeUndefined();
    expect(fileExists(pathId)).toBe(false);
    expect((await fetchRaw(s, url, { as: "hamlet" })).status).toBe(404);
  });
});
