import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { queueEvents, registerQueue } from "../helpers/messages";
import { makeStream, makeUser, setRealmSettings } from "../helpers/people";
import { ROLE } from "../../src/domain/roles";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const sys = (name: string) => s.app.systemGroups.get(name as any)!;
let counter = 0;
async function makeGroup(by = s.users.hamlet, params: Record<string, unknown> = {}) {
  const name = `group ${++counter}`;
  const r = (await by.client.post("/user_groups/create", { name, description: `The ${name}`, members: [], ...params })).success();
  return r.group_id as number;
}
const groupDict = async (id: number) =>
  (await s.users.hamlet.client.get("/user_groups", { include_deactivated_groups: true })).success().user_groups.find((g: any) => g.id === id);

describe("GET /user_groups", () => {
  test("lists the system groups with their direct members and subgroups", async () => {
    const { user_groups } = (await s.users.hamlet.client.get("/user_groups")).success();
    const byName = new Map(user_groups.map((g: any) => [g.name, g]));
    const members: any = byName.get("role:members");
    expect(members).toMatchObject({ is_system_group: true, description: "Everyone except guests", deactivated: false, creator_id: null });
    expect(members.members).toContain(s.users.hamlet.id);
    expect(members.direct_subgroup_ids).toEqual([sys("role:fullmembers")]);
    expect((byName.get("role:owners") as any).members).toEqual([s.users.desdemona.id]);
    for (const setting of ["can_add_members_group", "can_join_group", "can_leave_group", "can_manage_group", "can_mention_group", "can_remove_members_group"]) {
      expect(members[setting]).toBe(sys("role:nobody"));
    }
  });

  test("guests and bots may not use the user-group endpoints", async () => {
    (await s.users.polonius.client.get("/user_groups")).error("Not allowed for guest users");
    const bot = (await s.users.hamlet.client.post("/bots", { full_name: "Group Bot", short_name: "groupbot" })).success();
    (await s.clientFor("groupbot-bot@parley.test", bot.api_key).get("/user_groups")).error("This endpoint does not accept bot requests.");
  });
});

describe("POST /user_groups/create", () => {
  test("a member creates a group; defaults make the creator its manager; everyone gets user_group add", async () => {
    let id = 0;
    const events = await s.captureEvents(async () => {
      id = (await s.users.hamlet.client.post("/user_groups/create", { name: "actors", description: "The players", members: [s.users.hamlet.id, s.users.othello.id] })).success().group_id;
    });
    const g = await groupDict(id);
    const creatorValue = { direct_members: [s.users.hamlet.id], direct_subgroups: [] };
    expect(g).toEqual({
      id,
      name: "actors",
      description: "The players",
      creator_id: s.users.hamlet.id,
      date_created: Math.floor(Date.UTC(2026, 0, 1) / 1000),
      members: [s.users.hamlet.id, s.users.othello.id].sort((a, b) => a - b),
      direct_subgroup_ids: [],
      is_system_group: false,
      can_add_members_group: creatorValue,
      can_join_group: sys("role:nobody"),
      can_leave_group: sys("role:everyone"),
      can_manage_group: creatorValue,
      can_mention_group: sys("role:everyone"),
      can_remove_members_group: sys("role:nobody"),
      deactivated: false,
    });
    expect(events.of("polonius")).toContainEqual({ type: "user_group", op: "add", group: g });
    expect(s.app.groups.isMember(id, s.users.othello.id)).toBe(true);
  });

  test("settings and subgroups can be given at creation", async () => {
    const inner = await makeGroup();
    const id = (await s.users.hamlet.client.post("/user_groups/create", {
      name: "with settings",
      description: "",
      members: [],
      subgroups: [inner],
      can_join_group: sys("role:members"),
      can_mention_group: { direct_members: [s.users.cordelia.id], direct_subgroups: [] },
    })).success().group_id;
    const g = await groupDict(id);
    expect(g.direct_subgroup_ids).toEqual([inner]);
    expect(g.can_join_group).toBe(sys("role:members"));
    expect(g.can_mention_group).toEqual({ direct_members: [s.users.cordelia.id], direct_subgroups: [] });
  });

  test("names, members, subgroups and settings are validated", async () => {
    const c = s.users.hamlet.client;
    (await c.post("/user_groups/create", { name: "actors", description: "", members: [] })).error("User group 'actors' already exists.");
    (await c.post("/user_groups/create", { name: "  ", description: "", members: [] })).error("User group name can't be empty!");
    (await c.post("/user_groups/create", { name: "role:fake", description: "", members: [] })).error("User group name cannot start with 'role:'.");
    (await c.post("/user_groups/create", { name: "@here", description: "", members: [] })).error("User group name cannot start with '@'.");
    (await c.post("/user_groups/create", { name: "g".repeat(101), description: "", members: [] })).error("User group name cannot exceed 100 characters.");
    (await c.post("/user_groups/create", { name: "ghosts", description: "", members: [999999] })).error("Invalid user ID: 999999");
    (await c.post("/user_groups/create", { name: "ghosts", description: "", members: [], subgroups: [999999] })).error("Invalid user group ID: 999999");
    (await c.post("/user_groups/create", { name: "ghosts", description: "", members: [], can_manage_group: sys("role:everyone") })).error(
      "'can_manage_group' setting cannot be set to 'role:everyone' group.",
    );
    (await c.post("/user_groups/create", { name: "ghosts", description: "" })).error("Missing 'members' argument", "REQUEST_VARIABLE_MISSING");
    expect((await c.get("/user_groups")).success().user_groups.some((g: any) => g.name === "ghosts")).toBe(false);
  });

  test("can_create_groups decides who creates groups", async () => {
    await setRealmSettings(s, { can_create_groups: sys("role:administrators") });
    try {
      (await s.users.hamlet.client.post("/user_groups/create", { name: "not allowed", description: "", members: [] })).error("Insufficient permission");
      (await s.users.iago.client.post("/user_groups/create", { name: "admins only", description: "", members: [] })).success();
    } finally {
      await setRealmSettings(s, { can_create_groups: sys("role:members") });
    }
  });
});

describe("PATCH /user_groups/{id}", () => {
  test("the manager renames a group and changes its settings; each change is an update event", async () => {
    const id = await makeGroup();
    const events = await s.captureEvents(async () => {
      (await s.users.hamlet.client.patch(`/user_groups/${id}`, { name: "renamed", description: "new words", can_join_group: { new: sys("role:members"), old: sys("role:nobody") } })).success();
    });
    const seen = events.of("cordelia");
    expect(seen).toContainEqual({ type: "user_group", op: "update", group_id: id, data: { name: "renamed" } });
    expect(seen).toContainEqual({ type: "user_group", op: "update", group_id: id, data: { description: "new words" } });
    expect(seen).toContainEqual({ type: "user_group", op: "update", group_id: id, data: { can_join_group: sys("role:members") } });
    expect(await groupDict(id)).toMatchObject({ name: "renamed", description: "new words", can_join_group: sys("role:members") });
  });

  test("others may not edit it; owners may (can_manage_all_groups); system groups are read-only", async () => {
    const id = await makeGroup();
    (await s.users.othello.client.patch(`/user_groups/${id}`, { name: "hijacked" })).error("Insufficient permission");
    (await s.users.iago.client.patch(`/user_groups/${id}`, { name: "hijacked" })).error("Insufficient permission");
    (await s.users.desdemona.client.patch(`/user_groups/${id}`, { description: "owner edit" })).success();
    (await s.users.desdemona.client.patch(`/user_groups/${sys("role:members")}`, { description: "x" })).error("Insufficient permission");
    (await s.users.hamlet.client.patch(`/user_groups/${id}`, {})).error("No new data supplied");
    (await s.users.hamlet.client.patch("/user_groups/777777", { name: "x" })).error("Invalid user group");
  });

  test("a stale 'old', a taken name and a forbidden value are refused", async () => {
    const id = await makeGroup();
    (await s.users.hamlet.client.patch(`/user_groups/${id}`, { can_join_group: { new: sys("role:members"), old: sys("role:owners") } })).error(
      "'old' value does not match the expected value.",
      "EXPECTATION_MISMATCH",
    );
    (await s.users.hamlet.client.patch(`/user_groups/${id}`, { name: "actors" })).error("User group 'actors' already exists.");
    (await s.users.hamlet.client.patch(`/user_groups/${id}`, { can_remove_members_group: { new: sys("role:everyone") } })).error(
      "'can_remove_members_group' setting cannot be set to 'role:everyone' group.",
    );
  });

  test("handing can_manage_group to someone else takes it from the creator", async () => {
    const id = await makeGroup();
    (await s.users.hamlet.client.patch(`/user_groups/${id}`, { can_manage_group: { new: { direct_members: [s.users.cordelia.id], direct_subgroups: [] } } })).success();
    (await s.users.cordelia.client.patch(`/user_groups/${id}`, { description: "cordelia's now" })).success();
    (await s.users.hamlet.client.patch(`/user_groups/${id}`, { description: "mine?" })).error("Insufficient permission");
  });
});

describe("POST /user_groups/{id}/members", () => {
  test("the manager adds and removes members with events", async () => {
    const id = await makeGroup();
    const events = await s.captureEvents(async () => {
      (await s.users.hamlet.client.post(`/user_groups/${id}/members`, { add: [s.users.othello.id, s.users.cordelia.id] })).success();
      (await s.users.hamlet.client.post(`/user_groups/${id}/members`, { delete: [s.users.othello.id] })).success();
    });
    expect((await groupDict(id)).members).toEqual([s.users.cordelia.id]);
    expect(events.of("iago")).toContainEqual({ type: "user_group", op: "add_members", group_id: id, user_ids: [s.users.othello.id, s.users.cordelia.id].sort((a, b) => a - b) });
    expect(events.of("iago")).toContainEqual({ type: "user_group", op: "remove_members", group_id: id, user_ids: [s.users.othello.id] });
  });

  test("members already in, members not in and unknown users are refused", async () => {
    const id = await makeGroup(s.users.hamlet, { members: [s.users.othello.id] });
    const c = s.users.hamlet.client;
    (await c.post(`/user_groups/${id}/members`, { add: [s.users.othello.id] })).error(`User ${s.users.othello.id} is already a member of this group`);
    (await c.post(`/user_groups/${id}/members`, { delete: [s.users.cordelia.id] })).error(`There is no member '${s.users.cordelia.id}' in this user group`);
    (await c.post(`/user_groups/${id}/members`, { add: [123456] })).error("Invalid user ID: 123456");
    (await c.post(`/user_groups/${id}/members`, {})).error('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
  });

  test("joining needs can_join_group, leaving needs can_leave_group, others need the add/remove permissions", async () => {
    const id = await makeGroup();
    (await s.users.cordelia.client.post(`/user_groups/${id}/members`, { add: [s.users.cordelia.id] })).error("Insufficient permission");
    (await s.users.hamlet.client.patch(`/user_groups/${id}`, { can_join_group: { new: sys("role:members") } })).success();
    (await s.users.cordelia.client.post(`/user_groups/${id}/members`, { add: [s.users.cordelia.id] })).success();
    (await s.users.cordelia.client.post(`/user_groups/${id}/members`, { add: [s.users.othello.id] })).error("Insufficient permission");
    (await s.users.cordelia.client.post(`/user_groups/${id}/members`, { delete: [s.users.cordelia.id] })).success();
    (await s.users.hamlet.client.patch(`/user_groups/${id}`, { can_leave_group: { new: sys("role:nobody") } })).success();
    (await s.users.cordelia.client.post(`/user_groups/${id}/members`, { add: [s.users.cordelia.id] })).success();
    (await s.users.cordelia.client.post(`/user_groups/${id}/members`, { delete: [s.users.cordelia.id] })).error("Insufficient permission");
    (await s.users.hamlet.client.patch(`/user_groups/${id}`, { can_remove_members_group: { new: sys("role:administrators") } })).success();
    (await s.users.iago.client.post(`/user_groups/${id}/members`, { delete: [s.users.cordelia.id] })).success();
  });

  test("system groups follow roles and cannot be edited by hand", async () => {
    (await s.users.desdemona.client.post(`/user_groups/${sys("role:administrators")}/members`, { add: [s.users.hamlet.id] })).error("Insufficient permission");
    const u = await makeUser(s, "Promoted");
    (await s.users.iago.client.patch(`/users/${u.id}`, { role: ROLE.administrator })).success();
    expect((await groupDict(sys("role:administrators"))).members).toContain(u.id);
    expect((await groupDict(sys("role:members"))).members).not.toContain(u.id);
  });

  test("add_subgroups and delete_subgroups work here too", async () => {
    const id = await makeGroup();
    const sub = await makeGroup();
    (await s.users.hamlet.client.post(`/user_groups/${id}/members`, { add_subgroups: [sub] })).success();
    expect((await groupDict(id)).direct_subgroup_ids).toEqual([sub]);
    (await s.users.hamlet.client.post(`/user_groups/${id}/members`, { delete_subgroups: [sub] })).success();
    expect((await groupDict(id)).direct_subgroup_ids).toEqual([]);
  });

  test("a deactivated user is no member, and comes back as one when reactivated", async () => {
    const u = await makeUser(s, "Transient");
    const id = await makeGroup(s.users.hamlet, { members: [u.id] });
    (await s.users.iago.client.delete(`/users/${u.id}`)).success();
    expect((await groupDict(id)).members).toEqual([]);
    (await s.users.hamlet.client.get(`/user_groups/${id}/members/${u.id}`)).error("User is deactivated");
    (await s.users.iago.client.post(`/users/${u.id}/reactivate`)).success();
    expect((await groupDict(id)).members).toEqual([u.id]);
  });
});

describe("subgroups", () => {
  test("subgroups are added and removed with events; membership counts through them", async () => {
    const outer = await makeGroup();
    const inner = await makeGroup(s.users.hamlet, { members: [s.users.cordelia.id] });
    const events = await s.captureEvents(async () => {
      (await s.users.hamlet.client.post(`/user_groups/${outer}/subgroups`, { add: [inner] })).success();
    });
    expect(events.of("othello")).toContainEqual({ type: "user_group", op: "add_subgroups", group_id: outer, direct_subgroup_ids: [inner] });
    const c = s.users.othello.client;
    expect((await c.get(`/user_groups/${outer}/members/${s.users.cordelia.id}`)).success().is_user_group_member).toBe(true);
    expect((await c.get(`/user_groups/${outer}/members/${s.users.cordelia.id}`, { direct_member_only: true })).success().is_user_group_member).toBe(false);
    expect((await c.get(`/user_groups/${outer}/members`)).success().members).toEqual([s.users.cordelia.id]);
    expect((await c.get(`/user_groups/${outer}/members`, { direct_member_only: true })).success().members).toEqual([]);
    expect((await c.get(`/user_groups/${outer}/subgroups`)).success().subgroups).toEqual([inner]);
    const removal = await s.captureEvents(async () => {
      (await s.users.hamlet.client.post(`/user_groups/${outer}/subgroups`, { delete: [inner] })).success();
    });
    expect(removal.of("othello")).toContainEqual({ type: "user_group", op: "remove_subgroups", group_id: outer, direct_subgroup_ids: [inner] });
    expect((await c.get(`/user_groups/${outer}/members/${s.users.cordelia.id}`)).success().is_user_group_member).toBe(false);
  });

  test("cycles are refused, as are duplicates and strangers", async () => {
    const a = await makeGroup();
    const b = await makeGroup();
    const c = await makeGroup();
    const client = s.users.hamlet.client;
    (await client.post(`/user_groups/${a}/subgroups`, { add: [b] })).success();
    (await client.post(`/user_groups/${b}/subgroups`, { add: [c] })).success();
    (await client.post(`/user_groups/${c}/subgroups`, { add: [a] })).error(`User group ${c} is already a subgroup of one of the passed subgroups.`);
    (await client.post(`/user_groups/${a}/subgroups`, { add: [a] })).error(`User group ${a} is already a subgroup of one of the passed subgroups.`);
    (await client.post(`/user_groups/${a}/subgroups`, { add: [b] })).error(`User group ${b} is already a subgroup of this group.`);
    (await client.post(`/user_groups/${a}/subgroups`, { delete: [c] })).error(`User group ${c} is not a subgroup of this group.`);
    (await client.post(`/user_groups/${a}/subgroups`, { add: [4444] })).error("Invalid user group ID: 4444");
    (await client.post(`/user_groups/${a}/subgroups`, {})).error('Nothing to do. Specify at least one of "add" or "delete".');
    expect((await client.get(`/user_groups/${a}/subgroups`)).success().subgroups).toEqual([b, c]);
    expect((await client.get(`/user_groups/${a}/subgroups`, { direct_subgroup_only: true })).success().subgroups).toEqual([b]);
    (await s.users.othello.client.post(`/user_groups/${a}/subgroups`, { delete: [b] })).error("Insufficient permission");
  });
});

describe("GET /user_groups/{id}/members/{user_id}", () => {
  test("answers for system groups through nested subgroups, and refuses unknown ids", async () => {
    const c = s.users.hamlet.client;
    expect((await c.get(`/user_groups/${sys("role:members")}/members/${s.users.desdemona.id}`)).success().is_user_group_member).toBe(true);
    expect((await c.get(`/user_groups/${sys("role:members")}/members/${s.users.desdemona.id}`, { direct_member_only: true })).success().is_user_group_member).toBe(false);
    expect((await c.get(`/user_groups/${sys("role:members")}/members/${s.users.polonius.id}`)).success().is_user_group_member).toBe(false);
    (await c.get(`/user_groups/${sys("role:members")}/members/898989`)).error("No such user");
    (await c.get(`/user_groups/989898/members/${s.users.hamlet.id}`)).error("Invalid user group");
  });
});

describe("POST /user_groups/{id}/deactivate", () => {
  test("the manager deactivates an unused group; it disappears from the list unless asked for", async () => {
    const id = await makeGroup();
    const events = await s.captureEvents(async () => {
      (await s.users.hamlet.client.post(`/user_groups/${id}/deactivate`)).success();
    });
    expect(events.of("cordelia")).toContainEqual({ type: "user_group", op: "update", group_id: id, data: { deactivated: true } });
    const active = (await s.users.hamlet.client.get("/user_groups")).success().user_groups;
    expect(active.some((g: any) => g.id === id)).toBe(false);
    expect((await groupDict(id)).deactivated).toBe(true);
    (await s.users.hamlet.client.post(`/user_groups/${id}/members`, { add: [s.users.othello.id] })).error("User group is deactivated.");
    (await s.users.hamlet.client.post(`/user_groups/${id}/deactivate`)).error("User group is deactivated.");
    // the rename reaches clients that keep deactivated groups; the others were told the group is gone
    const modern = await registerQueue(s, "cordelia", { event_types: ["user_group"], client_capabilities: { include_deactivated_groups: true } });
    const legacy = await registerQueue(s, "cordelia", { event_types: ["user_group"] });
    (await s.users.hamlet.client.patch(`/user_groups/${id}`, { name: "renamed while deactivated" })).success();
    expect((await queueEvents(s, "cordelia", modern)).map(({ id: _, ...e }) => e)).toEqual([{ type: "user_group", op: "update", group_id: id, data: { name: "renamed while deactivated" } }]);
    expect(await queueEvents(s, "cordelia", legacy)).toEqual([]);
    const other = await makeGroup();
    (await s.users.hamlet.client.post(`/user_groups/${other}/subgroups`, { add: [id] })).error("User group is deactivated.");
  });

  test("a group in use is refused with its objections", async () => {
    const used = await makeGroup();
    const parent = await makeGroup();
    (await s.users.hamlet.client.post(`/user_groups/${parent}/subgroups`, { add: [used] })).success();
    (await s.users.desdemona.client.patch("/realm", { can_create_groups: { new: { direct_members: [s.users.hamlet.id], direct_subgroups: [used] } } })).success();
    const holder = await makeGroup(s.users.hamlet, { can_mention_group: used });
    const stream = await makeStream(s, "group channel", []);
    await s.app.db.run("UPDATE streams SET can_send_message_group = ? WHERE id = ?", [used, stream]);
    const r = (await s.users.hamlet.client.post(`/user_groups/${used}/deactivate`)).error("Cannot deactivate user group in use.", "CANNOT_DEACTIVATE_GROUP_IN_USE");
    expect(r.objections).toEqual([
      { type: "subgroup", supergroup_ids: [parent] },
      { type: "channel", channel_id: stream, settings: ["can_send_message_group"] },
      { type: "user_group", group_id: holder, settings: ["can_mention_group"] },
      { type: "realm", settings: ["can_create_groups"] },
    ]);
    expect((await groupDict(used)).deactivated).toBe(false);
  });

  test("system groups and other people's groups cannot be deactivated", async () => {
    const id = await makeGroup();
    (await s.users.othello.client.post(`/user_groups/${id}/deactivate`)).error("Insufficient permission");
    (await s.users.desdemona.client.post(`/user_groups/${sys("role:moderators")}/deactivate`)).error("Insufficient permission");
  });
});

describe("realm_user_groups in /register", () => {
  test("the initial state lists active groups, and deactivated ones only with include_deactivated_groups", async () => {
    const id = await makeGroup();
    (await s.users.hamlet.client.post(`/user_groups/${id}/deactivate`)).success();
    const plain = (await s.users.othello.client.post("/register", { fetch_event_types: ["realm_user_groups"] })).success();
    expect(plain.realm_user_groups.some((g: any) => g.id === id)).toBe(false);
    expect(plain.realm_user_groups.some((g: any) => g.name === "role:everyone")).toBe(true);
    const all = (await s.users.othello.client.post("/register", { fetch_event_types: ["realm_user_groups"], client_capabilities: { include_deactivated_groups: true } })).success();
    expect(all.realm_user_groups.find((g: any) => g.id === id).deactivated).toBe(true);
    expect(plain.realm_user_groups).toEqual((await s.users.othello.client.get("/user_groups")).success().user_groups);
  });
});
