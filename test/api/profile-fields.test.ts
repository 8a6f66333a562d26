import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const create = async (params: Parameters<typeof s.users.iago.client.post>[1]) => (await s.users.iago.client.post("/realm/profile_fields", params)).success().id as number;

describe("POST /realm/profile_fields", () => {
  test("an administrator adds a field; everyone gets the new list", async () => {
    let id = 0;
    const events = await s.captureEvents(async () => {
      id = await create({ name: "Phone number", hint: "With country code", field_type: 1, required: true });
    });
    const field = { id, name: "Phone number", type: 1, hint: "With country code", field_data: "", order: 1, required: true, editable_by_user: true };
    expect((await s.users.hamlet.client.get("/realm/profile_fields")).success().custom_fields).toEqual([field]);
    expect(events.of("polonius")).toContainEqual({ type: "custom_profile_fields", fields: [field] });
  });

  test("every field type is accepted with its data; choices and external accounts keep field_data", async () => {
    const choices = { vim: { text: "Vim", order: "1" }, emacs: { text: "Emacs", order: "2" } };
    const select = await create({ name: "Editor", field_type: 3, field_data: choices, display_in_profile_summary: true });
    const github = await create({ name: "GitHub", field_type: 7, field_data: { subtype: "github" } });
    for (const [i, type] of [2, 4, 5, 6, 8].entries()) await create({ name: `Field ${i}`, field_type: type, editable_by_user: type !== 6 });
    const fields = (await s.users.hamlet.client.get("/realm/profile_fields")).success().custom_fields;
    expect(fields.map((f: any) => f.type)).toEqual([1, 3, 7, 2, 4, 5, 6, 8]);
    expect(fields.map((f: any) => f.order)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const editor = fields.find((f: any) => f.id === select);
    expect(JSON.parse(editor.field_data)).toEqual(choices);
    expect(editor.display_in_profile_summary).toBe(true);
    expect(JSON.parse(fields.find((f: any) => f.id === github).field_data)).toEqual({ subtype: "github" });
    expect(fields.find((f: any) => f.type === 6).editable_by_user).toBe(false);
  });

  test("bad names, types and data are refused", async () => {
    const c = s.users.iago.client;
    (await c.post("/realm/profile_fields", { name: " ", field_type: 1 })).error("Label cannot be blank.");
    (await c.post("/realm/profile_fields", { name: "x".repeat(41), field_type: 1 })).error("name is too long (limit: 40 characters)");
    (await c.post("/realm/profile_fields", { name: "Hinted", hint: "h".repeat(81), field_type: 1 })).error("hint is too long (limit: 80 characters)");
    (await c.post("/realm/profile_fields", { name: "Typeless", field_type: 42 })).error("Invalid field type.");
    (await c.post("/realm/profile_fields", { name: "Phone number", field_type: 1 })).error("A field with that label already exists.");
    (await c.post("/realm/profile_fields", { name: "Empty choice", field_type: 3, field_data: {} })).error("Field must have at least one choice.");
    (await c.post("/realm/profile_fields", { name: "Dup choice", field_type: 3, field_data: { a: { text: "A", order: "1" }, b: { text: "A", order: "2" } } })).error(
      "Field must not have duplicate choices.",
    );
    (await c.post("/realm/profile_fields", { name: "Bad choice", field_type: 3, field_data: { a: "A" } })).error('field_data["a"] is not a dict');
    (await c.post("/realm/profile_fields", { name: "Bad account", field_type: 7, field_data: { subtype: "myspace" } })).error("Invalid external account type");
    (await c.post("/realm/profile_fields", { name: "Long summary", field_type: 2, display_in_profile_summary: true })).error(
      "Long text and person picker fields cannot be displayed in the profile summary.",
    );
    (await c.post("/realm/profile_fields", { name: "No type" })).error("Missing 'field_type' argument", "REQUEST_VARIABLE_MISSING");
  });

  test("at most two fields are shown in the profile summary", async () => {
    await create({ name: "Summary two", field_type: 1, display_in_profile_summary: true });
    (await s.users.iago.client.post("/realm/profile_fields", { name: "Summary three", field_type: 1, display_in_profile_summary: true })).error(
      "Only 2 custom profile fields can be displayed in the profile summary.",
    );
  });

  test("members cannot add fields", async () => {
    (await s.users.hamlet.client.post("/realm/profile_fields", { name: "Sneaky", field_type: 1 })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    (await s.users.shiva.client.post("/realm/profile_fields", { name: "Sneaky", field_type: 1 })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
  });
});

describe("PATCH /users/me/profile_data", () => {
  const field = async (name: string) => (await s.users.hamlet.client.get("/realm/profile_fields")).success().custom_fields.find((f: any) => f.name === name);

  test("a user sets their values; text is rendered; everyone is told", async () => {
    const phone = await field("Phone number");
    const bio = await field("Field 0");
    const events = await s.captureEvents(async () => {
      (await s.users.hamlet.client.patch("/users/me/profile_data", { data: [{ id: phone.id, value: "+1 555 0100" }, { id: bio.id, value: "I am *the* prince" }] })).success();
    });
    const me = (await s.users.hamlet.client.get("/users/me")).success();
    expect(me.profile_data).toEqual({
      [phone.id]: { value: "+1 555 0100", rendered_value: "<p>+1 555 0100</p>" },
      [bio.id]: { value: "I am *the* prince", rendered_value: "<p>I am <em>the</em> prince</p>" },
    });
    expect(events.of("othello")).toContainEqual({
      type: "realm_user",
      op: "update",
      person: { user_id: s.users.hamlet.id, custom_profile_field: { id: bio.id, value: "I am *the* prince", rendered_value: "<p>I am <em>the</em> prince</p>" } },
    });
  });

  test("values are checked against the field type", async () => {
    const c = s.users.hamlet.client;
    const date = await field("Field 1");
    const url = await field("Field 2");
    const editor = await field("Editor");
    const phone = await field("Phone number");
    (await c.patch("/users/me/profile_data", { data: [{ id: date.id, value: "2026-13-45" }] })).error("Field 1 is not a date");
    (await c.patch("/users/me/profile_data", { data: [{ id: url.id, value: "not a url" }] })).error("Field 2 is not a URL");
    (await c.patch("/users/me/profile_data", { data: [{ id: editor.id, value: "nano" }] })).error("'nano' is not a valid choice for 'Editor'.");
    (await c.patch("/users/me/profile_data", { data: [{ id: phone.id, value: "x".repeat(51) }] })).error("Phone number is too long (limit: 50 characters)");
    (await c.patch("/users/me/profile_data", { data: [{ id: phone.id, value: [1] }] })).error("Phone number is not a string");
    (await c.patch("/users/me/profile_data", { data: [{ id: 9999, value: "x" }] })).error("Field id 9999 not found.");
    (await c.patch("/users/me/profile_data", { data: [{ id: phone.id }] })).error('data[0]["value"] field is missing');
    (await c.patch("/users/me/profile_data", { data: [{ id: date.id, value: "2000-02-29" }, { id: url.id, value: "https://example.com/x" }, { id: editor.id, value: "vim" }] })).success();
    const me = (await c.get("/users/me")).success();
    expect(me.profile_data[date.id]).toEqual({ value: "2000-02-29" });
    expect(me.profile_data[editor.id]).toEqual({ value: "vim" });
  });

  test("a person picker takes active user ids; it is editable only by administrators here", async () => {
    const mentor = await field("Field 3");
    (await s.users.hamlet.client.patch("/users/me/profile_data", { data: [{ id: mentor.id, value: [s.users.othello.id] }] })).error(
      "You are not allowed to change this field. Contact an administrator to update it.",
    );
    (await s.users.iago.client.patch("/users/me/profile_data", { data: [{ id: mentor.id, value: [4242] }] })).error("Invalid user ID: 4242");
    (await s.users.iago.client.patch("/users/me/profile_data", { data: [{ id: mentor.id, value: [s.users.othello.id] }] })).success();
    expect((await s.users.iago.client.get("/users/me")).success().profile_data[mentor.id]).toEqual({ value: `[${s.users.othello.id}]` });
  });

  test("an empty value clears the field, and an unchanged value sends nothing", async () => {
    const phone = await field("Phone number");
    const quiet = await s.captureEvents(async () => {
      (await s.users.hamlet.client.patch("/users/me/profile_data", { data: [{ id: phone.id, value: "+1 555 0100" }] })).success();
    });
    expect(quiet.types()).toEqual([]);
    const events = await s.captureEvents(async () => {
      (await s.users.hamlet.client.patch("/users/me/profile_data", { data: [{ id: phone.id, value: "" }] })).success();
    });
    expect((await s.users.hamlet.client.get("/users/me")).success().profile_data[phone.id]).toBeUndefined();
    expect(events.of("cordelia")).toContainEqual({ type: "realm_user", op: "update", person: { user_id: s.users.hamlet.id, custom_profile_field: { id: phone.id, value: null } } });
  });
});

describe("editing, reordering and deleting fields", () => {
  test("an administrator edits a field and everyone gets the new list", async () => {
    const id = await create({ name: "Team", field_type: 1 });
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.patch(`/realm/profile_fields/${id}`, { name: "Squad", hint: "Which one", editable_by_user: false })).success();
    });
    const f = (await s.users.hamlet.client.get("/realm/profile_fields")).success().custom_fields.find((x: any) => x.id === id);
    expect(f).toMatchObject({ name: "Squad", hint: "Which one", editable_by_user: false });
    expect(events.of("hamlet")[0]).toMatchObject({ type: "custom_profile_fields" });
    (await s.users.iago.client.patch(`/realm/profile_fields/${id}`, { name: "Phone number" })).error("A field with that label already exists.");
    (await s.users.hamlet.client.patch(`/realm/profile_fields/${id}`, { name: "Mine" })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    (await s.users.iago.client.patch("/realm/profile_fields/99999", { name: "Ghost" })).error("Field id 99999 not found.");
  });

  test("reordering needs every field exactly once", async () => {
    const ids = (await s.users.hamlet.client.get("/realm/profile_fields")).success().custom_fields.map((f: any) => f.id);
    const reversed = [...ids].reverse();
    (await s.users.iago.client.patch("/realm/profile_fields", { order: reversed })).success();
    expect((await s.users.hamlet.client.get("/realm/profile_fields")).success().custom_fields.map((f: any) => f.id)).toEqual(reversed);
    (await s.users.iago.client.patch("/realm/profile_fields", { order: reversed.slice(1) })).error("Invalid order mapping.");
    (await s.users.iago.client.patch("/realm/profile_fields", { order: ids })).success();
  });

  test("deleting a field removes everyone's values; users clear their own values", async () => {
    const id = await create({ name: "Temporary", field_type: 1 });
    (await s.users.cordelia.client.patch("/users/me/profile_data", { data: [{ id, value: "soon gone" }] })).success();
    (await s.users.hamlet.client.delete(`/realm/profile_fields/${id}`)).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    (await s.users.iago.client.delete(`/realm/profile_fields/${id}`)).success();
    expect(await s.app.db.all("SELECT * FROM custom_profile_values WHERE field_id = ?", [id])).toEqual([]);
    expect((await s.users.cordelia.client.get("/users/me")).success().profile_data[id]).toBeUndefined();
    const keep = await create({ name: "Clearable", field_type: 1 });
    (await s.users.cordelia.client.patch("/users/me/profile_data", { data: [{ id: keep, value: "here" }] })).success();
    (await s.users.cordelia.client.delete("/users/me/profile_data", { data: [keep] })).success();
    expect((await s.users.cordelia.client.get("/users/me")).success().profile_data[keep]).toBeUndefined();
  });
});

describe("custom_profile_fields in /register", () => {
  test("the fields and the field types are in the initial state", async () => {
    const state = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["custom_profile_fields"] })).success();
    expect(state.custom_profile_fields.length).toBe((await s.users.hamlet.client.get("/realm/profile_fields")).success().custom_fields.length);
    expect(state.custom_profile_field_types.SHORT_TEXT).toEqual({ id: 1, name: "Text (short)" });
    expect(state.custom_profile_field_types.PRONOUNS).toEqual({ id: 8, name: "Pronouns" });
  });

  test("a client that declared pronouns_field_type_supported false sees pronouns fields as short text", async () => {
    const register = async (caps: Record<string, boolean>) =>
      (await s.users.hamlet.client.post("/register", { event_types: ["custom_profile_fields"], client_capabilities: caps })).success();
    const current = await register({});
    const old = await register({ pronouns_field_type_supported: false });
    const id = await create({ name: "Pronouns", hint: "What to call you", field_type: 8 });
    const typeOf = (fields: any[]) => fields.find((f) => f.id === id)?.type;
    const events = async (queue_id: string) => (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: -1, dont_block: true })).success().events;
    expect(typeOf((await events(current.queue_id))[0].fields)).toBe(8);
    expect(typeOf((await events(old.queue_id))[0].fields)).toBe(1);
    const state = await register({ pronouns_field_type_supported: false });
    expect(typeOf(state.custom_profile_fields)).toBe(1);
    expect(state.custom_profile_field_types.PRONOUNS).toBeUndefined();
    expect(state.custom_profile_field_types.SHORT_TEXT).toEqual({ id: 1, name: "Text (short)" });
    expect(typeOf((await register({ pronouns_field_type_supported: true })).custom_profile_fields)).toBe(8);
  });

  test("realm_users carry profile_data for humans", async () => {
    (await s.users.othello.client.patch("/users/me/profile_data", { data: [{ id: (await s.users.othello.client.get("/realm/profile_fields")).success().custom_fields[0].id, value: "+44" }] })).success();
    const state = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm_user"] })).success();
    const othello = state.realm_users.find((u: any) => u.user_id === s.users.othello.id);
    expect(Object.values(othello.profile_data)).toContainEqual({ value: "+44", rendered_value: "<p>+44</p>" });
  });
});
