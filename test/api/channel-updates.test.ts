import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { reloadRealm } from "../../src/app";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";

let s: TestServer;
let g: (name: string) => number;
beforeAll(async () => {
  s = await startServer();
  g = (name) => s.app.systemGroups.get(name as never)!;
});
afterAll(() => s.close());

const row = (id: number) => s.app.db.get<any>("SELECT * FROM streams WHERE id = ?", [id]);
/** Events without the message events of Notification Bot's notices. */
const only = (events: any[]) => events.filter((e) => e.type !== "message");
const update = (id: number, property: string, value: unknown, name: string) => ({ type: "stream", op: "update", stream_id: id, name, property, value });

describe("PATCH /streams/{id}: who may edit", () => {
  test("members who do not administer the channel are refused; the creator and administrators may edit", async () => {
    const id = await createChannel(s, "hamlet", "perms", { subscribers: ["othello"] });
    (await s.users.othello.client.patch(`/streams/${id}`, { description: "mine" })).error("You do not have permission to administer this channel.");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { description: "by creator" })).success();
    (await s.users.iago.client.patch(`/streams/${id}`, { description: "by admin" })).success();
    expect((await row(id)).description).toBe("by admin");
  });

  test("a private channel is 'Invalid channel ID' to those who may not know of it", async () => {
    const id = await createChannel(s, "hamlet", "perms-private", { invite_only: true });
    (await s.users.othello.client.patch(`/streams/${id}`, { description: "x" })).error("Invalid channel ID");
    (await s.users.othello.client.patch("/streams/99999", { description: "x" })).error("Invalid channel ID");
  });

  test("can_administer_channel_group grants editing; guests never administer", async () => {
    const id = await createChannel(s, "hamlet", "shared-admin", { subscribers: ["polonius"] });
    const current = (await s.users.hamlet.client.get(`/streams/${id}`)).success().stream.can_administer_channel_group;
    (
      await s.users.hamlet.client.patch(`/streams/${id}`, {
        can_administer_channel_group: { new: { direct_members: [s.users.cordelia.id, s.users.polonius.id], direct_subgroups: [] }, old: current },
      })
    ).success();
    (await s.users.cordelia.client.patch(`/streams/${id}`, { description: "cordelia was here" })).success();
    (await s.users.polonius.client.patch(`/streams/${id}`, { description: "polonius was here" })).error("You do not have permission to administer this channel.");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { description: "x" })).error("You do not have permission to administer this channel.");
  });
});

describe("PATCH /streams/{id}: properties", () => {
  test("the description is rendered and announced to everyone who may know of the channel", async () => {
    const id = await createChannel(s, "hamlet", "described");
    const ev = await s.captureEvents(async () => (await s.users.hamlet.client.patch(`/streams/${id}`, { description: "line one\nline <two>" })).success());
    const expected = { ...update(id, "description", "line one line <two>", "described"), rendered_description: expect.stringContaining("&lt;two&gt;") };
    expect(only(ev.of("cordelia"))).toEqual([expected]);
    expect(only(ev.of("polonius"))).toEqual([]);
    expect((await row(id)).description).toBe("line one line <two>");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { description: "see #**described** and *this*" })).success();
    expect((await row(id)).rendered_description).toContain("<em>this</em>");
    expect((await row(id)).rendered_description).toContain(`data-stream-id="${id}"`);
    (await s.users.hamlet.client.patch(`/streams/${id}`, { description: "x".repeat(1025) })).error("description is too long (limit: 1024 characters)");
  });

  test("renaming: unique names, the event carries the old name, a case-only change is allowed", async () => {
    const id = await createChannel(s, "hamlet", "old name");
    await createChannel(s, "hamlet", "taken");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { new_name: "old name" })).error("Channel already has that name.");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { new_name: "TAKEN" })).error("Channel 'TAKEN' already exists", "CHANNEL_ALREADY_EXISTS");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { new_name: "" })).error("Channel name can't be empty.");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { new_name: "x".repeat(61) })).error("Channel name too long (limit: 60 characters).");
    const ev = await s.captureEvents(async () => (await s.users.hamlet.client.patch(`/streams/${id}`, { new_name: " new name " })).success());
    expect(only(ev.of("othello"))).toEqual([update(id, "name", "new name", "old name")]);
    (await s.users.hamlet.client.patch(`/streams/${id}`, { new_name: "New Name" })).success();
    expect((await row(id)).name).toBe("New Name");
  });

  test("public ↔ private: invite_only updates, and visibility changes as create/delete events", async () => {
    const id = await createChannel(s, "hamlet", "flip", { subscribers: ["othello"] });
    const ev = await s.captureEvents(async () => (await s.users.hamlet.client.patch(`/streams/${id}`, { is_private: true })).success());
    const inviteOnly = { ...update(id, "invite_only", true, "flip"), history_public_to_subscribers: false, is_web_public: false };
    expect(only(ev.of("othello"))).toEqual([inviteOnly]);
    expect(only(ev.of("iago"))).toEqual([inviteOnly]);
    expect(only(ev.of("cordelia"))).toEqual([{ type: "stream", op: "delete", streams: [{ stream_id: id }], stream_ids: [id] }]);
    expect(only(ev.of("polonius"))).toEqual([]);
    expect(await row(id)).toMatchObject({ invite_only: 1, history_public_to_subscribers: 0 });

    const back = await s.captureEvents(async () => (await s.users.hamlet.client.patch(`/streams/${id}`, { is_private: false })).success());
    expect(only(back.of("othello"))).toEqual([{ ...inviteOnly, value: false, history_public_to_subscribers: true }]);
    expect(only(back.of("cordelia")).map((e) => `${e.type}:${e.op}`)).toEqual(["stream:create", "subscription:peer_add"]);
    expect((only(back.of("cordelia"))[1] as any).user_ids).toEqual([s.users.hamlet.id, s.users.othello.id].sort((a, b) => a - b));
  });

  test("history rules: public channels share history; protected history needs topic creation for everyone", async () => {
    const id = await createChannel(s, "hamlet", "history");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { history_public_to_subscribers: false })).error("Invalid parameters");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { is_private: true, history_public_to_subscribers: true })).success();
    expect(await row(id)).toMatchObject({ invite_only: 1, history_public_to_subscribers: 1 });
    const everyone = g("role:everyone");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { can_create_topic_group: { new: g("role:members") } })).success();
    (await s.users.hamlet.client.patch(`/streams/${id}`, { history_public_to_subscribers: false })).error(
      "Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group",
    );
    (await s.users.hamlet.client.patch(`/streams/${id}`, { history_public_to_subscribers: false, can_create_topic_group: { new: everyone } })).success();
    expect(await row(id)).toMatchObject({ history_public_to_subscribers: 0, can_create_topic_group: everyone });
  });

  test("web-public needs spectator access and the owners' group; a web-public channel cannot be private", async () => {
    const id = await createChannel(s, "desdemona", "spectators");
    (await s.users.desdemona.client.patch(`/streams/${id}`, { is_web_public: true })).error("Web-public channels are not enabled.");
    await s.app.db.run(`UPDATE realm SET settings = json_set(settings, '$.enable_spectator_access', json('true'))`);
    await reloadRealm(s.app);
    (await s.users.iago.client.patch(`/streams/${id}`, { is_web_public: true })).error("Insufficient permission");
    (await s.users.desdemona.client.patch(`/streams/${id}`, { is_web_public: true, is_private: true })).error("Invalid parameters");
    const ev = await s.captureEvents(async () => (await s.users.desdemona.client.patch(`/streams/${id}`, { is_web_public: true })).success());
    expect(only(ev.of("polonius")).map((e) => `${e.type}:${e.op}`)).toEqual(["stream:create", "subscription:peer_add"]);
    expect((await row(id)).is_web_public).toBe(1);
  });

  test("is_default_stream: administrators only, never for a private channel", async () => {
    const id = await createChannel(s, "hamlet", "defaultable");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { is_default_stream: true })).error("You do not have permission to change default channels.");
    const ev = await s.captureEvents(async () => (await s.users.iago.client.patch(`/streams/${id}`, { is_default_stream: true })).success());
    expect(only(ev.of("polonius"))).toEqual([{ type: "default_streams", default_streams: [id] }]);
    (await s.users.iago.client.patch(`/streams/${id}`, { is_private: true })).error("A default channel cannot be private.");
    (await s.users.iago.client.patch(`/streams/${id}`, { is_default_stream: false, is_private: true })).success();
    expect(await s.app.db.get("SELECT 1 FROM default_streams WHERE stream_id = ?", [id])).toBeUndefined();
  });

  test("message_retention_days: owners only; integers, realm_default and unlimited", async () => {
    const id = await createChannel(s, "desdemona", "retained");
    (await s.users.iago.client.patch(`/streams/${id}`, { message_retention_days: 7 })).error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
    const ev = await s.captureEvents(async () => (await s.users.desdemona.client.patch(`/streams/${id}`, { message_retention_days: 7 })).success());
    expect(only(ev.of("hamlet"))).toEqual([update(id, "message_retention_days", 7, "retained")]);
    (await s.users.desdemona.client.patch(`/streams/${id}`, { message_retention_days: "unlimited" })).success();
    expect((await row(id)).message_retention_days).toBe(-1);
    (await s.users.desdemona.client.patch(`/streams/${id}`, { message_retention_days: "realm_default" })).success();
    expect((await row(id)).message_retention_days).toBeNull();
    (await s.users.desdemona.client.patch(`/streams/${id}`, { message_retention_days: 0 })).error("Bad value for 'message_retention_days': 0", "REQUEST_VARIABLE_INVALID");
  });

  test("topics_policy: needs the topics-policy group; empty_topic_only only when every message is in the empty topic", async () => {
    const id = await createChannel(s, "hamlet", "topical");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { topics_policy: "disable_empty_topic" })).error("Insufficient permission");
    (await s.users.shiva.client.patch(`/streams/${id}`, { topics_policy: "nonsense" })).error("Invalid topics_policy");
    const ev = await s.captureEvents(async () => (await s.users.iago.client.patch(`/streams/${id}`, { topics_policy: "disable_empty_topic" })).success());
    expect(only(ev.of("hamlet"))).toEqual([update(id, "topics_policy", "disable_empty_topic", "topical")]);
    const recipient = (await row(id)).recipient_id;
    await s.app.db.run(
      "INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content, date_sent) VALUES (1, ?, ?, ?, 'named', 'x', '<p>x</p>', 0)",
      [s.users.hamlet.id, recipient, id],
    );
    (await s.users.iago.client.patch(`/streams/${id}`, { topics_policy: "empty_topic_only" })).error(
      'To enable this configuration, all messages in this channel must be in the "general chat" topic. Consider renaming or deleting other topics.',
    );
    const empty = await createChannel(s, "hamlet", "untitled");
    // only the creation notice is there, in "channel events"; without it every message is in the empty topic
    (await s.users.iago.client.patch(`/streams/${empty}`, { topics_policy: "empty_topic_only" })).error(
      'To enable this configuration, all messages in this channel must be in the "general chat" topic. Consider renaming or deleting other topics.',
    );
    await s.app.db.run("DELETE FROM messages WHERE stream_id = ?", [empty]);
    (await s.users.iago.client.patch(`/streams/${empty}`, { topics_policy: "empty_topic_only" })).success();
  });

  test("stream_post_policy and is_announcement_only are ignored and reported", async () => {
    const id = await createChannel(s, "hamlet", "legacy");
    const r = (await s.users.hamlet.client.patch(`/streams/${id}`, { stream_post_policy: 2, is_announcement_only: true })).success();
    expect(r.ignored_parameters_unsupported).toEqual(["is_announcement_only", "stream_post_policy"]);
    expect((await row(id)).can_send_message_group).toBe(g("role:everyone"));
  });

  test("bad input is refused with Zulip's messages", async () => {
    const id = await createChannel(s, "hamlet", "inputs");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { is_private: "maybe" })).error("is_private is not valid JSON");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { folder_id: "x" })).error("folder_id is not valid JSON");
    (await s.users.hamlet.client.patch("/streams/x1", { description: "x" })).error("Invalid stream_id");
  });
});

describe("Notification Bot's notices about changes", () => {
  const notices = async (id: number, since: number) =>
    (await s.app.db.all<any>("SELECT topic, content FROM messages WHERE stream_id = ? AND id > ? ORDER BY id", [id, since])).map((m) => m.content);
  const lastId = async () => (await s.app.db.get<any>("SELECT coalesce(max(id), 0) AS id FROM messages")).id;

  test("renaming, describing, changing access and posting permissions each post a notice in channel events", async () => {
    const id = await createChannel(s, "hamlet", "noticeboard");
    const since = await lastId();
    const hamlet = `@_**King Hamlet|${s.users.hamlet.id}**`;
    (await s.users.hamlet.client.patch(`/streams/${id}`, { new_name: "notices", description: "News" })).success();
    (await s.users.hamlet.client.patch(`/streams/${id}`, { is_private: true })).success();
    (await s.users.hamlet.client.patch(`/streams/${id}`, { can_send_message_group: { new: { direct_members: [s.users.othello.id], direct_subgroups: [g("role:administrators")] } } })).success();
    expect(await notices(id, since)).toEqual([
      `${hamlet} changed the description for this channel.\n\n* **Old description:**\n\`\`\`\` quote\n*No description.*\n\`\`\`\`\n* **New description:**\n\`\`\`\` quote\nNews\n\`\`\`\``,
      `${hamlet} renamed channel **noticeboard** to **notices**.`,
      `${hamlet} changed the [access permissions](/help/channel-permissions) for this channel from **Public** to **Private, protected history**.`,
      `${hamlet} changed the [posting permissions](/help/channel-posting-policy) for this channel:\n\n* **Old**: @_*role:everyone*\n* **New**: @_*role:administrators*, @_**Othello, the Moor of Venice|${s.users.othello.id}**`,
    ]);
    const topics = await s.app.db.all<any>("SELECT DISTINCT topic FROM messages WHERE stream_id = ?", [id]);
    expect(topics).toEqual([{ topic: "channel events" }]);
  });

  test("archiving and unarchiving are noted in the channel", async () => {
    const id = await createChannel(s, "hamlet", "seasonal");
    const since = await lastId();
    (await s.users.hamlet.client.delete(`/streams/${id}`)).success();
    (await s.users.iago.client.patch(`/streams/${id}`, { is_archived: false })).success();
    expect(await notices(id, since)).toEqual(["Channel #**seasonal** has been archived.", "Channel #**seasonal** has been unarchived."]);
  });
});

describe("PATCH /streams/{id}: group settings", () => {
  test("a {new, old} update with a stale old value is refused with EXPECTATION_MISMATCH", async () => {
    const id = await createChannel(s, "hamlet", "groups-1");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { can_send_message_group: { new: g("role:members"), old: g("role:moderators") } })).error(
      "'old' value does not match the expected value.",
      "EXPECTATION_MISMATCH",
    );
    const ev = await s.captureEvents(async () =>
      (await s.users.hamlet.client.patch(`/streams/${id}`, { can_send_message_group: { new: g("role:administrators"), old: g("role:everyone") } })).success(),
    );
    expect(only(ev.of("cordelia"))).toEqual([
      update(id, "can_send_message_group", g("role:administrators"), "groups-1"),
      update(id, "stream_post_policy", 2, "groups-1"),
      update(id, "is_announcement_only", true, "groups-1"),
    ]);
  });

  test("anonymous values are stored as groups without a name and shown as members and subgroups", async () => {
    const id = await createChannel(s, "hamlet", "groups-2");
    const value = { direct_members: [s.users.othello.id], direct_subgroups: [g("role:moderators")] };
    const ev = await s.captureEvents(async () => (await s.users.hamlet.client.patch(`/streams/${id}`, { can_remove_subscribers_group: { new: value } })).success());
    expect(only(ev.of("cordelia"))).toEqual([update(id, "can_remove_subscribers_group", value, "groups-2")]);
    const stored = (await row(id)).can_remove_subscribers_group;
    expect((await s.app.db.get<any>("SELECT name FROM user_groups WHERE id = ?", [stored])).name).toBeNull();
    expect(s.app.groups.isMember(stored, s.users.othello.id)).toBe(true);
    expect(s.app.groups.isMember(stored, s.users.shiva.id)).toBe(true);
    expect((await s.users.hamlet.client.get(`/streams/${id}`)).success().stream.can_remove_subscribers_group).toEqual(value);
    (await s.users.hamlet.client.patch(`/streams/${id}`, { can_remove_subscribers_group: { new: g("role:members"), old: { direct_members: [], direct_subgroups: [] } } })).error(
      "'old' value does not match the expected value.",
      "EXPECTATION_MISMATCH",
    );
    (await s.users.hamlet.client.patch(`/streams/${id}`, { can_remove_subscribers_group: { new: g("role:members"), old: value } })).success();
  });

  test("equal anonymous values share one stored group; a one-subgroup value is that group", async () => {
    const a = await createChannel(s, "hamlet", "shared-a");
    const b = await createChannel(s, "hamlet", "shared-b");
    const value = { direct_members: [s.users.cordelia.id, s.users.othello.id], direct_subgroups: [] };
    (await s.users.hamlet.client.patch(`/streams/${a}`, { can_send_message_group: { new: value } })).success();
    (await s.users.hamlet.client.patch(`/streams/${b}`, { can_send_message_group: { new: { ...value, direct_members: [...value.direct_members].reverse() } } })).success();
    expect((await row(a)).can_send_message_group).toBe((await row(b)).can_send_message_group);
    (await s.users.hamlet.client.patch(`/streams/${b}`, { can_send_message_group: { new: { direct_members: [], direct_subgroups: [g("role:moderators")] } } })).success();
    expect((await row(b)).can_send_message_group).toBe(g("role:moderators"));
    (await s.users.hamlet.client.patch(`/streams/${b}`, { can_send_message_group: { new: { direct_members: [], direct_subgroups: [] } } })).success();
    expect((await row(b)).can_send_message_group).toBe(g("role:nobody"));
  });

  test("setting a value equal to the current one changes nothing and sends nothing", async () => {
    const id = await createChannel(s, "hamlet", "groups-3");
    const ev = await s.captureEvents(async () => (await s.users.hamlet.client.patch(`/streams/${id}`, { can_send_message_group: { new: g("role:everyone") } })).success());
    expect(only(ev.of("hamlet"))).toEqual([]);
  });

  test("malformed updates are refused", async () => {
    const id = await createChannel(s, "hamlet", "groups-4");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { can_send_message_group: g("role:members") })).error("can_send_message_group is not a dict");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { can_send_message_group: { old: 1 } })).error('can_send_message_group["new"] field is missing');
    (await s.users.hamlet.client.patch(`/streams/${id}`, { can_add_subscribers_group: { new: g("role:everyone") } })).error(
      "'can_add_subscribers_group' setting cannot be set to 'role:everyone' group.",
    );
    (await s.users.hamlet.client.patch(`/streams/${id}`, { can_send_message_group: { new: 424242 } })).error("Invalid user group");
  });

  test("per-channel delete permissions need the organization's delete-policy group", async () => {
    const id = await createChannel(s, "hamlet", "groups-5");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { can_delete_own_message_group: { new: g("role:members") } })).error("Insufficient permission");
    (await s.users.shiva.client.patch(`/streams/${id}`, { can_delete_any_message_group: { new: g("role:moderators") } })).error(
      "You do not have permission to administer this channel.",
    );
    (await s.users.iago.client.patch(`/streams/${id}`, { can_delete_any_message_group: { new: g("role:moderators") }, can_delete_own_message_group: { new: g("role:members") } })).success();
    expect(await row(id)).toMatchObject({ can_delete_any_message_group: g("role:moderators"), can_delete_own_message_group: g("role:members") });
  });

  test("an administrator not subscribed to a private channel may change metadata settings but not content ones", async () => {
    const id = await createChannel(s, "hamlet", "groups-6", { invite_only: true });
    (await s.users.iago.client.patch(`/streams/${id}`, { can_remove_subscribers_group: { new: g("role:members") } })).success();
    (await s.users.iago.client.patch(`/streams/${id}`, { description: "seen by admins" })).success();
    (await s.users.iago.client.patch(`/streams/${id}`, { can_add_subscribers_group: { new: g("role:members") } })).error("Channel content access is required.");
    (await s.users.iago.client.patch(`/streams/${id}`, { can_subscribe_group: { new: g("role:members") } })).error("Channel content access is required.");
    (await s.users.iago.client.patch(`/streams/${id}`, { is_private: false })).error("Channel content access is required.");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { can_add_subscribers_group: { new: g("role:members") } })).success();
  });

  test("granting can_subscribe_group to members makes the private channel visible to them", async () => {
    const id = await createChannel(s, "hamlet", "groups-7", { invite_only: true });
    const ev = await s.captureEvents(async () => (await s.users.hamlet.client.patch(`/streams/${id}`, { can_subscribe_group: { new: g("role:members") } })).success());
    expect(only(ev.of("cordelia")).map((e) => `${e.type}:${e.op}`)).toEqual(["stream:create", "subscription:peer_add"]);
    expect(only(ev.of("hamlet"))).toEqual([update(id, "can_subscribe_group", g("role:members"), "groups-7")]);
    expect(only(ev.of("polonius"))).toEqual([]);
    (await s.users.cordelia.client.post("/users/me/subscriptions", { subscriptions: [{ name: "groups-7" }] })).success();
    const gone = await s.captureEvents(async () => (await s.users.hamlet.client.patch(`/streams/${id}`, { can_subscribe_group: { new: g("role:nobody") } })).success());
    expect(only(gone.of("othello"))).toEqual([{ type: "stream", op: "delete", streams: [{ stream_id: id }], stream_ids: [id] }]);
    expect(only(gone.of("cordelia"))).toEqual([update(id, "can_subscribe_group", g("role:nobody"), "groups-7")]);
  });

  test("several changes in one request are all validated before any is written", async () => {
    const id = await createChannel(s, "hamlet", "atomic");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { description: "new", can_send_message_group: { new: 424242 } })).error("Invalid user group");
    expect((await row(id)).description).toBe("");
    (await s.users.hamlet.client.patch(`/streams/${id}`, { description: "new", is_default_stream: true })).error("You do not have permission to change default channels.");
    expect((await row(id)).description).toBe("");
  });
});
