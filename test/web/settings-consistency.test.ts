/**
 * The web app's store against a live server, for what the settings screens change: people's roles and
 * deactivation, bots and their keys, user groups (description, members, subgroups, permissions,
 * deactivation), a channel's name, description, privacy, folder, default status and posting and
 * removal permissions, per-channel push and email choices, and custom profile fields. Each person's
 * client registers with the app's own parameters and applies its events with the app's reducer; after
 * the changes its state equals a fresh /register's.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type CastName, type TestServer } from "../helpers/server";
import { follow, type Slice } from "../helpers/consistency";
import { createChannel } from "../helpers/channels";
import { REGISTER_PARAMS } from "../../assets/app/state/register-params";
import { fromRegister } from "../../assets/app/state/from-register";
import { applyEvent } from "../../assets/app/state/apply-event";
import type { State } from "../../assets/app/state/types";

let s: TestServer;
beforeAll(async () => (s = await startServer()));
afterAll(() => s.close());

const PARTS = ["users", "channels", "subscriptions", "subscribers", "groups", "realm", "bots", "default_channels", "channel_folders", "profile_fields"] as const;

const slice: Slice<{ state: State }> = {
  register: { ...REGISTER_PARAMS },
  fromRegister: (body) => ({ state: fromRegister(body) }),
  apply: (box, e) => void (box.state = applyEvent(box.state, e)),
  summary: (box) => PARTS.map((k) => `${k}: ${JSON.stringify(box.state[k])}`),
};

// not othello: deactivating him ends his queues
const PEOPLE: CastName[] = ["desdemona", "iago", "hamlet", "cordelia", "polonius"];

test("a client that applied the events of the settings screens' changes agrees with a fresh register", async () => {
  const watch = await follow(s, PEOPLE, slice, { unvalidatedEvents: true });
  const { iago, hamlet, othello, desdemona } = s.users;
  const log: string[] = [];
  const step = async (what: string, run: () => Promise<unknown>) => {
    log.push(what);
    await run();
  };

  const castle = await createChannel(s, "hamlet", "Castle", { subscribers: ["othello", "iago"] });
  await step("role change", async () => (await iago.client.patch(`/users/${othello.id}`, { role: 300 })).success());
  await step("bot created", async () => (await hamlet.client.post("/bots", { full_name: "Ghost bot", short_name: "ghost" })).success());
  const botId: number = (await hamlet.client.get("/bots")).success().bots[0].user_id;
  await step("bot key regenerated", async () => (await hamlet.client.post(`/bots/${botId}/api_key/regenerate`)).success());
  await step("bot renamed", async () => (await hamlet.client.patch(`/bots/${botId}`, { full_name: "Spectre bot" })).success());
  await step("bot deactivated", async () => (await hamlet.client.delete(`/bots/${botId}`)).success());
  await step("bot reactivated", async () => (await hamlet.client.post(`/users/${botId}/reactivate`)).success());
  await step("group created", async () => (await hamlet.client.post("/user_groups/create", { name: "Players", description: "On stage", members: [hamlet.id, othello.id] })).success());
  const groups = (await hamlet.client.get("/user_groups")).success().user_groups as { id: number; name: string }[];
  const players = groups.find((g) => g.name === "Players")!.id;
  await step("second group", async () => (await hamlet.client.post("/user_groups/create", { name: "Crew", description: "", members: [iago.id] })).success());
  const crew = ((await hamlet.client.get("/user_groups")).success().user_groups as { id: number; name: string }[]).find((g) => g.name === "Crew")!.id;
  await step("group renamed and described", async () => (await hamlet.client.patch(`/user_groups/${players}`, { name: "The players", description: "Actors" })).success());
  await step("group permission", async () => (await hamlet.client.patch(`/user_groups/${players}`, { can_join_group: { new: { direct_members: [iago.id], direct_subgroups: [] } } })).success());
  await step("members changed", async () => (await hamlet.client.post(`/user_groups/${players}/members`, { add: [iago.id], delete: [othello.id] })).success());
  await step("subgroup added", async () => (await hamlet.client.post(`/user_groups/${players}/subgroups`, { add: [crew] })).success());
  await step("subgroup removed", async () => (await hamlet.client.post(`/user_groups/${players}/subgroups`, { delete: [crew] })).success());
  await step("group deactivated", async () => (await hamlet.client.post(`/user_groups/${crew}/deactivate`)).success());
  await step("channel renamed", async () => (await iago.client.patch(`/streams/${castle}`, { new_name: "Keep", description: "Stone walls" })).success());
  await step("channel private", async () => (await iago.client.patch(`/streams/${castle}`, { is_private: true, history_public_to_subscribers: false })).success());
  await step("posting limited", async () => (await iago.client.patch(`/streams/${castle}`, { can_send_message_group: { new: { direct_members: [hamlet.id], direct_subgroups: [] } } })).success());
  await step("removal limited", async () => (await iago.client.patch(`/streams/${castle}`, { can_remove_subscribers_group: { new: players } })).success());
  await step("channel public again", async () => (await iago.client.patch(`/streams/${castle}`, { is_private: false })).success());
  await step("folder created", async () => (await iago.client.post("/channel_folders/create", { name: "Places", description: "Where" })).success());
  const folder = (await iago.client.get("/channel_folders")).success().channel_folders[0].id as number;
  await step("channel in folder", async () => (await iago.client.patch(`/streams/${castle}`, { folder_id: folder })).success());
  await step("folder renamed", async () => (await iago.client.patch(`/channel_folders/${folder}`, { name: "Rooms" })).success());
  await step("default channel", async () => (await iago.client.patch(`/streams/${castle}`, { is_default_stream: true })).success());
  await step("push and email choices", async () =>
    (await othello.client.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: castle, property: "push_notifications", value: true }, { stream_id: castle, property: "email_notifications", value: false }] })).success(),
  );
  await step("profile field", async () => (await desdemona.client.post("/realm/profile_fields", { name: "Team", field_type: 1, hint: "Which team" })).success());
  const field = (await desdemona.client.get("/realm/profile_fields")).success().custom_fields.find((f: { name: string }) => f.name === "Team").id as number;
  await step("profile value", async () => (await hamlet.client.patch("/users/me/profile_data", { data: [{ id: field, value: "Danes" }] })).success());
  await step("deactivated", async () => (await iago.client.delete(`/users/${othello.id}`)).success());
  await step("reactivated", async () => (await iago.client.post(`/users/${othello.id}/reactivate`)).success());
  await step("admin demoted", async () => (await desdemona.client.patch(`/users/${iago.id}`, { role: 400 })).success());
  await step("member promoted", async () => (await desdemona.client.patch(`/users/${hamlet.id}`, { role: 200 })).success());
  expect(log.length).toBeGreaterThan(20);
  await watch.check(log);
});
