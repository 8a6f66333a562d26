/**
 * The state the personal settings screens read, against a live server: a client that registered with
 * the app's parameters and applied its events with the app's reducer holds the same alert words, saved
 * snippets, own address and avatar source, profile data and organization switches as one that registers
 * now. Plus the pure helpers the screens use to read and write values.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { makePng } from "../helpers/uploads";
import { REGISTER_PARAMS } from "../../assets/app/state/register-params";
import { fromRegister } from "../../assets/app/state/from-register";
import { applyEvent } from "../../assets/app/state/apply-event";
import type { State } from "../../assets/app/state/types";
import { customSeconds, limitChoice, toSetting } from "../../assets/app/views/settings/controls/values";
import { fieldPeople, listOptions } from "../../assets/app/views/settings/personal/values";
import { zuliprc } from "../../assets/app/api/settings-calls";
import { sampleState } from "./fixtures";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

/** The parts of the state the personal settings read. */
const settingsPart = (st: State) => ({
  alert_words: [...st.alert_words].sort(),
  saved_snippets: st.saved_snippets,
  delivery_email: st.delivery_email,
  avatar_source: st.avatar_source,
  me: st.users[st.me],
  profile_fields: st.profile_fields,
  realm: { name_changes_disabled: st.realm.name_changes_disabled, email_changes_disabled: st.realm.email_changes_disabled, avatar_changes_disabled: st.realm.avatar_changes_disabled, enable_read_receipts: st.realm.enable_read_receipts },
  settings: st.settings,
});

async function followHamlet() {
  const client = s.users.hamlet.client;
  const r = (await client.post("/register", REGISTER_PARAMS)).success();
  let state = fromRegister(r);
  return {
    async expectSameAsFresh() {
      const events = (await client.request("GET", "/api/v1/events", { queue_id: r.queue_id, last_event_id: -1, dont_block: true }, { raw: true })).success().events;
      for (const e of events) state = applyEvent(state, e);
      const fresh = fromRegister((await client.post("/register", REGISTER_PARAMS)).success());
      expect(settingsPart(state)).toEqual(settingsPart(fresh));
      return { state, events };
    },
  };
}

describe("the personal settings' state, from events or from a fresh /register", () => {
  test("alert words, saved snippets, settings, profile data, the avatar and the organization's switches agree", async () => {
    const hamlet = s.users.hamlet.client;
    const field = (await s.users.iago.client.post("/realm/profile_fields", { name: "Pronouns", field_type: 8 })).success().id;
    const f = await followHamlet();
    (await hamlet.post("/users/me/alert_words", { alert_words: JSON.stringify(["Yorick", "skull"]) })).success();
    (await hamlet.delete("/users/me/alert_words", { alert_words: JSON.stringify(["skull"]) })).success();
    const kept = (await hamlet.post("/saved_snippets", { title: "Greeting", content: "Good morrow." })).success().saved_snippet_id;
    const gone = (await hamlet.post("/saved_snippets", { title: "Farewell", content: "Adieu." })).success().saved_snippet_id;
    (await hamlet.delete(`/saved_snippets/${gone}`)).success();
    (await hamlet.patch("/settings", { email_notifications_batching_period_seconds: 3600, fluid_layout_width: true, emojiset: "text", send_read_receipts: false })).success();
    (await hamlet.patch("/users/me/profile_data", { data: JSON.stringify([{ id: field, value: "he/him" }]) })).success();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(await makePng(64, 64))], { type: "image/png" }), "me.png");
    const auth = `Basic ${btoa(`${s.users.hamlet.email}:${s.users.hamlet.apiKey}`)}`;
    const upload = await s.server.handle(new Request("http://parley.test/api/v1/users/me/avatar", { method: "POST", body: form, headers: { Authorization: auth } }));
    expect(upload.status).toBe(200);
    (await s.users.desdemona.client.patch("/realm", { name_changes_disabled: true, email_changes_disabled: true, avatar_changes_disabled: true, enable_read_receipts: false })).success();
    const { state } = await f.expectSameAsFresh();
    expect(state.alert_words).toEqual(["Yorick"]);
    expect(Object.keys(state.saved_snippets).map(Number)).toEqual([kept]);
    expect(state.settings.email_notifications_batching_period_seconds).toBe(3600);
    expect(state.users[state.me]!.profile_data?.[field]?.value).toBe("he/him");
    expect(state.avatar_source).toBe("U");
    expect(state.realm.name_changes_disabled).toBe(true);
    expect(state.realm.enable_read_receipts).toBe(false);

    // and back: the avatar removed, the profile value cleared, the switches on again
    const g = await followHamlet();
    (await s.users.desdemona.client.patch("/realm", { name_changes_disabled: false, email_changes_disabled: false, avatar_changes_disabled: false, enable_read_receipts: true })).success();
    (await hamlet.delete("/users/me/avatar")).success();
    (await hamlet.patch("/users/me/profile_data", { data: JSON.stringify([{ id: field, value: "" }]) })).success();
    const after = (await g.expectSameAsFresh()).state;
    expect(after.avatar_source).toBe("G");
    expect(after.users[after.me]!.profile_data?.[field]).toBeUndefined();
  }, 30_000);

  test("an event about someone else's address or avatar leaves the person's own untouched", () => {
    const st = sampleState();
    const next = applyEvent(st, { type: "realm_user", op: "update", person: { user_id: 5, delivery_email: "othello@elsewhere.example", avatar_source: "U", avatar_url: "/user_avatars/2/5.png" } });
    expect(next.delivery_email).toBe(st.delivery_email);
    expect(next.avatar_source).toBe(st.avatar_source);
    expect(next.users[5]!.avatar_url).toBe("/user_avatars/2/5.png");
    const mine = applyEvent(st, { type: "realm_user", op: "update", person: { user_id: st.me, delivery_email: "hamlet@elsewhere.example" } });
    expect(mine.delivery_email).toBe("hamlet@elsewhere.example");
  });
});

describe("the settings controls' values", () => {
  test("a time limit is one of Zulip's choices or custom minutes, as seconds", () => {
    expect(limitChoice(null)).toBe("null");
    expect(limitChoice(600)).toBe("600");
    expect(limitChoice(900)).toBe("custom");
    expect(customSeconds("15")).toBe(900);
    for (const bad of ["", "0", "-3", "1.5", "soon"]) expect(typeof customSeconds(bad)).toBe("string");
  });

  test("a set of people and groups saves as Zulip's anonymous group, or as the one group it names", () => {
    expect(toSetting([9, 4], [])).toEqual({ direct_members: [4, 9], direct_subgroups: [] });
    expect(toSetting([], [11])).toBe(11);
    expect(toSetting([4], [11, 3])).toEqual({ direct_members: [4], direct_subgroups: [3, 11] });
    expect(toSetting([], [])).toEqual({ direct_members: [], direct_subgroups: [] });
  });

  test("a list field's options come in their order, and a people field's value reads as ids", () => {
    expect(listOptions(JSON.stringify({ b: { text: "Crew", order: "2" }, a: { text: "Stage", order: "1" } }))).toEqual([
      { key: "a", text: "Stage" },
      { key: "b", text: "Crew" },
    ]);
    expect(listOptions("not json")).toEqual([]);
    expect(fieldPeople("[4,5]")).toEqual([4, 5]);
    expect(fieldPeople("")).toEqual([]);
  });

  test("the zuliprc names the account, its key and the server", () => {
    expect(zuliprc("hamlet@zulip.com", "abc", "https://chat.example")).toBe("[api]\nemail=hamlet@zulip.com\nkey=abc\nsite=https://chat.example\n");
  });
});
