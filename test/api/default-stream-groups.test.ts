// Default channel groups (Zulip's /default_stream_groups): created, renamed, described, their channels
// added and removed, deleted, by administrators only; each change stored and sent to members, not guests.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";

let s: TestServer;
let castle = 0;
let garden = 0;
let tower = 0;
beforeAll(async () => {
  s = await startServer();
  castle = await createChannel(s, "iago", "Castle", { subscribers: ["hamlet"] });
  garden = await createChannel(s, "iago", "Garden", { subscribers: ["hamlet"] });
  tower = await createChannel(s, "iago", "Tower", { subscribers: ["hamlet"] });
});
afterAll(() => s.close());

const admin = () => s.users.iago.client;
const stored = async () => (await s.users.hamlet.client.post("/register", { fetch_event_types: ["default_stream_groups"] })).success().realm_default_stream_groups;
const groupId = async (name: string) => (await stored()).find((g: { name: string }) => g.name === name)!.id as number;

describe("creating a default channel group", () => {
  test("an administrator creates one; members get the whole list in an event, guests nothing", async () => {
    const events = await s.captureEvents(async () => {
      (await admin().post("/default_stream_groups/create", { group_name: "Newcomers", description: "Where to start", stream_names: ["Castle", "Garden"] })).success();
    });
    const expected = [{ id: expect.any(Number), name: "Newcomers", description: "Where to start", streams: [castle, garden].sort((a, b) => a - b) }];
    expect(await stored()).toEqual(expected);
    expect(events.of("hamlet")).toEqual([{ type: "default_stream_groups", default_stream_groups: expected }]);
    expect(events.of("desdemona")).toHaveLength(1);
    expect(events.of("polonius")).toEqual([]);
    const guest = (await s.users.polonius.client.post("/register", { fetch_event_types: ["default_stream_groups"] })).success();
    expect(guest.realm_default_stream_groups).toEqual([]);
  });

  test("members and moderators are refused, and nothing is stored", async () => {
    for (const who of ["hamlet", "shiva", "polonius"] as const) {
      (await s.users[who].client.post("/default_stream_groups/create", { group_name: "Mine", description: "", stream_names: ["Castle"] })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    }
    expect((await stored()).map((g: { name: string }) => g.name)).toEqual(["Newcomers"]);
  });

  test("a duplicate name, a blank name, an unknown channel and a default channel are refused with Zulip's messages", async () => {
    (await admin().post("/default_stream_groups/create", { group_name: "Newcomers", description: "", stream_names: [] })).error("Default channel group 'Newcomers' already exists");
    (await admin().post("/default_stream_groups/create", { group_name: "  ", description: "", stream_names: [] })).error("Invalid default channel group name '  '");
    (await admin().post("/default_stream_groups/create", { group_name: "x".repeat(61), description: "", stream_names: [] })).error("Default channel group name too long (limit: 60 characters)");
    (await admin().post("/default_stream_groups/create", { group_name: "Ghosts", description: "", stream_names: ["Nowhere"] })).error("Invalid channel name 'Nowhere'");
    (await admin().post("/default_streams", { stream_id: tower })).success();
    (await admin().post("/default_stream_groups/create", { group_name: "Heights", description: "", stream_names: ["Tower"] })).error("'Tower' is a default channel and cannot be added to 'Heights'");
    (await admin().delete("/default_streams", { stream_id: tower })).success();
    expect((await stored()).map((g: { name: string }) => g.name)).toEqual(["Newcomers"]);
  });
});

describe("changing a default channel group", () => {
  test("renamed and described, then its channels added and removed", async () => {
    const id = await groupId("Newcomers");
    (await admin().patch(`/default_stream_groups/${id}`, { new_group_name: "First steps", new_description: "Start here" })).success();
    (await admin().patch(`/default_stream_groups/${id}/streams`, { op: "add", stream_names: ["Tower"] })).success();
    (await admin().patch(`/default_stream_groups/${id}/streams`, { op: "remove", stream_names: ["Castle"] })).success();
    expect(await stored()).toEqual([{ id, name: "First steps", description: "Start here", streams: [garden, tower].sort((a, b) => a - b) }]);
  });

  test("refusals: the same name, nothing to change, a channel already there or not there, a bad op, an unknown group", async () => {
    const id = await groupId("First steps");
    const before = await stored();
    (await admin().patch(`/default_stream_groups/${id}`, { new_group_name: "First steps" })).error("This default channel group is already named 'First steps'");
    (await admin().patch(`/default_stream_groups/${id}`, {})).error('You must pass "new_description" or "new_group_name".');
    (await admin().patch(`/default_stream_groups/${id}/streams`, { op: "add", stream_names: ["Garden"] })).error("Channel 'Garden' is already present in default channel group 'First steps'");
    (await admin().patch(`/default_stream_groups/${id}/streams`, { op: "remove", stream_names: ["Castle"] })).error("Channel 'Castle' is not present in default channel group 'First steps'");
    (await admin().patch(`/default_stream_groups/${id}/streams`, { op: "toggle", stream_names: ["Castle"] })).error('Invalid value for "op". Specify one of "add" or "remove".');
    (await admin().patch("/default_stream_groups/9999", { new_group_name: "Other" })).error("Default channel group with id '9999' does not exist.");
    (await s.users.hamlet.client.patch(`/default_stream_groups/${id}`, { new_group_name: "Hamlet's" })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    expect(await stored()).toEqual(before);
  });

  test("an archived channel leaves the groups, and members are told", async () => {
    const id = await groupId("First steps");
    const events = await s.captureEvents(async () => (await admin().delete(`/streams/${tower}`)).success());
    expect((await stored())[0].streams).toEqual([garden]);
    expect(events.of("hamlet")).toContainEqual({ type: "default_stream_groups", default_stream_groups: [{ id, name: "First steps", description: "Start here", streams: [garden] }] });
  });

  test("deleted by an administrator, refused to a member", async () => {
    const id = await groupId("First steps");
    (await s.users.hamlet.client.delete(`/default_stream_groups/${id}`)).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    (await admin().delete(`/default_stream_groups/${id}`)).success();
    expect(await stored()).toEqual([]);
    expect(await s.app.db.all("SELECT * FROM default_stream_group_streams")).toEqual([]);
    (await admin().delete(`/default_stream_groups/${id}`)).error(`Default channel group with id '${id}' does not exist.`);
  });
});
