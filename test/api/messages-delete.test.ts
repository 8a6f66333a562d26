import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { setRealmSettings } from "../helpers/people";
import { systemGroup } from "../helpers/invite-fixtures";
import { messageRow, registerQueue, queueEvents, sendDm, sendStream } from "../helpers/messages";
import { pathIdOf, upload } from "../helpers/uploads";

let s: TestServer;
let verona: number;
beforeAll(async () => {
  s = await startServer();
  verona = await createChannel(s, "iago", "Verona", { subscribers: ["hamlet", "othello"] });
});
afterAll(() => s.close());

const del = (who: "hamlet" | "othello" | "iago" | "cordelia" | "shiva" | "desdemona", id: number) => s.users[who].client.delete(`/messages/${id}`);

describe("DELETE /messages/{message_id}", () => {
  test("the sender deletes their own message: rows go, and everyone who had it gets delete_message", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "oops", "typo");
    const ev = await s.captureEvents(async () => {
      (await del("hamlet", id)).success();
    });
    expect(await messageRow(s, id)).toBeUndefined();
    expect(await s.app.db.all("SELECT * FROM user_messages WHERE message_id = ?", [id])).toEqual([]);
    expect(ev.of("othello")).toEqual([{ type: "delete_message", message_type: "stream", message_ids: [id], stream_id: verona, topic: "oops" }]);
    expect(ev.of("cordelia")).toEqual([]);
  });

  test("clients without bulk_message_deletion get message_id", async () => {
    const q = await registerQueue(s, "othello", { event_types: ["delete_message"], client_capabilities: { notification_settings_null: true } });
    const id = await sendDm(s, "hamlet", ["othello"], "secret");
    (await del("hamlet", id)).success();
    expect(await queueEvents(s, "othello", q)).toEqual([{ id: 0, type: "delete_message", message_type: "private", message_id: id }]);
  });

  test("others' messages need can_delete_any_message_group (administrators by default)", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "mod", "x");
    (await del("othello", id)).error("You don't have permission to delete this message");
    (await del("shiva", id)).error("You don't have permission to delete this message");
    (await del("iago", id)).success();
  });

  test("a channel's can_delete_any_message_group lets its members delete there", async () => {
    (await s.users.iago.client.patch(`/streams/${verona}`, { can_delete_any_message_group: { new: systemGroup(s, "role:moderators") } })).success();
    try {
      const id = await sendStream(s, "hamlet", "Verona", "mod", "x");
      (await del("shiva", id)).success();
    } finally {
      (await s.users.iago.client.patch(`/streams/${verona}`, { can_delete_any_message_group: { new: systemGroup(s, "role:nobody") } })).success();
    }
  });

  test("deleting one's own needs can_delete_own_message_group and respects the time limit", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "own", "x");
    await setRealmSettings(s, { can_delete_own_message_group: systemGroup(s, "role:moderators") });
    try {
      (await del("hamlet", id)).error("You don't have permission to delete this message");
    } finally {
      await setRealmSettings(s, { can_delete_own_message_group: systemGroup(s, "role:everyone") });
    }
    await setRealmSettings(s, { message_content_delete_limit_seconds: 60 });
    try {
      s.clock.advance(61_000);
      (await del("hamlet", id)).error("The time limit for deleting this message has passed");
    } finally {
      await setRealmSettings(s, { message_content_delete_limit_seconds: null });
    }
    (await del("hamlet", id)).success();
  });

  test("a missing message or one the caller cannot read is BAD_REQUEST", async () => {
    (await del("hamlet", 99999)).error("Invalid message(s)", "BAD_REQUEST", 400);
    const dm = await sendDm(s, "hamlet", ["othello"], "private");
    (await del("cordelia", dm)).error("Invalid message(s)", "BAD_REQUEST", 400);
    (await del("desdemona", dm)).error("Invalid message(s)", "BAD_REQUEST", 400);
  });

  test("deleting the last message that links an upload deletes the upload", async () => {
    const up = await upload(s, "hamlet", "notes.txt", "some notes", "text/plain");
    const url = up.url as string;
    const a = await sendStream(s, "hamlet", "Verona", "files", `see [notes](${url})`);
    const b = await sendStream(s, "hamlet", "Verona", "files", `again [notes](${url})`);
    const path = pathIdOf(url);
    const count = async () => (await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM attachments WHERE path_id = ?", [path]))!.n;
    expect(await count()).toBe(1);
    (await del("hamlet", a)).success();
    expect(await count()).toBe(1);
    (await del("hamlet", b)).success();
    expect(await count()).toBe(0);
  });
});
