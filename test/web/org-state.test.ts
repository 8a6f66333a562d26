/**
 * The organization part of the web app's store (state/org.ts) against a live server: an open page
 * registers with the app's parameters and applies its events; after the administrators change
 * settings, defaults for new users, linkifiers, playgrounds, profile fields, default channels and
 * channel folders through the API, its state equals a fresh /register's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type CastName, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { REGISTER_PARAMS } from "../../assets/app/state/register-params";
import { fromRegister } from "../../assets/app/state/from-register";
import { applyEvent } from "../../assets/app/state/apply-event";
import type { State } from "../../assets/app/state/types";

let s: TestServer;
let castle: number;
beforeAll(async () => {
  s = await startServer();
  castle = await createChannel(s, "iago", "Castle", { subscribers: ["hamlet"] });
});
afterAll(() => s.close());

async function openPage(who: CastName) {
  const r = (await s.users[who].client.post("/register", REGISTER_PARAMS)).success();
  let state = fromRegister(r);
  let last = -1;
  return {
    get state() {
      return state;
    },
    async catchUp(): Promise<State> {
      const got = (await s.users[who].client.request("GET", "/api/v1/events", { queue_id: r.queue_id, last_event_id: last, dont_block: true }, { raw: true })).success();
      for (const e of got.events) {
        state = applyEvent(state, e);
        last = e.id;
      }
      return state;
    },
  };
}
/** What the administration screens read of a state: the organization part and the lists kept beside it. */
const adminPart = (st: State) => ({ org: st.org, profile_fields: st.profile_fields, default_channels: st.default_channels, channel_folders: st.channel_folders });
const fresh = async (who: CastName) => adminPart(fromRegister((await s.users[who].client.post("/register", REGISTER_PARAMS)).success()));
const folders = (st: State) => Object.values(st.channel_folders ?? {}).sort((a, b) => (a.order ?? 0) - (b.order ?? 0));

describe("the organization's settings in the web app's store", () => {
  test("/register gives every setting the screens show, with group settings as the app keeps them", async () => {
    const org = (await fresh("hamlet")).org!;
    expect(org.settings.name).toBe("Zulip Dev");
    expect(org.settings.message_edit_history_visibility_policy).toBe("all");
    expect(org.settings.message_content_edit_limit_seconds).toBe(600);
    expect(typeof org.settings.can_create_public_channel_group).toBe("number");
    expect(org.settings.topics_policy).toBe("allow_empty_topic");
    expect(org.user_defaults.enter_sends).toBeBoolean();
    expect(org.user_defaults).not.toHaveProperty("emojiset_choices");
  });

  test("realm updates, update_dict events and group settings reach an open page as a fresh register has them", async () => {
    const page = await openPage("hamlet");
    const admins = page.state.org!.settings.can_delete_any_message_group as number;
    await s.users.desdemona.client.patch("/realm", {
      name: "Elsinore",
      description: "Something is rotten",
      message_content_edit_limit_seconds: 3600,
      allow_message_editing: false,
      message_edit_history_visibility_policy: "moves",
      topics_policy: "disable_empty_topic",
      waiting_period_threshold: 3,
      enable_spectator_access: true,
      can_create_public_channel_group: { new: admins, old: page.state.org!.settings.can_create_public_channel_group },
      can_mention_many_users_group: { new: { direct_members: [s.users.hamlet.id], direct_subgroups: [admins] }, old: page.state.org!.settings.can_mention_many_users_group },
    }).then((r) => r.success());
    const state = await page.catchUp();
    expect(state.org!.settings).toMatchObject({ name: "Elsinore", allow_message_editing: false, message_content_edit_limit_seconds: 3600, topics_policy: "disable_empty_topic", mandatory_topics: true, waiting_period_threshold: 3 });
    expect(state.org!.settings.can_create_public_channel_group).toBe(admins);
    expect(state.org!.settings.can_mention_many_users_group).toEqual({ direct_members: [s.users.hamlet.id], direct_subgroups: [admins] });
    // the older parts of the store follow the same events
    expect(state.realm.name).toBe("Elsinore");
    expect(adminPart(state)).toEqual(await fresh("hamlet"));
  });

  test("defaults for new users, linkifiers, playgrounds, profile fields, default channels and folders stay in step", async () => {
    const page = await openPage("iago");
    const admin = s.users.iago.client;
    (await admin.patch("/realm/user_settings_defaults", { enter_sends: true, twenty_four_hour_time: true })).success();
    const l1 = (await admin.post("/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://tracker.example/{id}" })).success().id;
    const l2 = (await admin.post("/realm/filters", { pattern: "PR-(?P<n>[0-9]+)", url_template: "https://git.example/pr/{n}" })).success().id;
    (await admin.patch("/realm/linkifiers", { ordered_linkifier_ids: [l2, l1] })).success();
    (await admin.patch(`/realm/filters/${l1}`, { pattern: "#(?P<id>[0-9]{2,})", url_template: "https://tracker.example/{id}" })).success();
    const pg = (await admin.post("/realm/playgrounds", { name: "Rust playground", pygments_language: "rust", url_template: "https://play.example/?code={code}" })).success().id;
    (await admin.post("/realm/playgrounds", { name: "Python", pygments_language: "python", url_template: "https://py.example/?c={code}" })).success();
    (await admin.delete(`/realm/playgrounds/${pg}`)).success();
    const f1 = (await admin.post("/realm/profile_fields", { name: "Team", hint: "Your team", field_type: 1 })).success().id;
    const f2 = (await admin.post("/realm/profile_fields", { name: "Office", hint: "", field_type: 3, field_data: { a: { text: "North", order: "1" }, b: { text: "South", order: "2" } } })).success().id;
    (await admin.patch("/realm/profile_fields", { order: [f2, f1] })).success();
    (await admin.patch(`/realm/profile_fields/${f1}`, { name: "Squad" })).success();
    (await admin.post("/default_streams", { stream_id: castle })).success();
    const folder = (await admin.post("/channel_folders/create", { name: "Work", description: "The *work* channels" })).success().channel_folder_id;
    const folder2 = (await admin.post("/channel_folders/create", { name: "Play", description: "" })).success().channel_folder_id;
    (await admin.patch(`/channel_folders/${folder}`, { name: "Labour", is_archived: true })).success();
    (await admin.patch("/channel_folders", { order: [folder2, folder] })).success();

    const state = await page.catchUp();
    expect(state.org!.user_defaults).toMatchObject({ enter_sends: true, twenty_four_hour_time: true });
    expect(state.org!.linkifiers.map((l) => l.id)).toEqual([l2, l1]);
    expect(state.org!.linkifiers[1]!.pattern).toBe("#(?P<id>[0-9]{2,})");
    expect(state.org!.playgrounds.map((p) => p.name)).toEqual(["Python"]);
    expect(state.profile_fields!.map((f) => f.name)).toEqual(["Office", "Squad"]);
    expect(state.default_channels).toEqual([castle]);
    expect(folders(state).map((f) => [f.name, f.is_archived])).toEqual([["Play", false], ["Labour", true]]);
    expect(adminPart(state)).toEqual(await fresh("iago"));

    (await admin.delete("/default_streams", { stream_id: castle })).success();
    (await admin.post("/default_stream_groups/create", { group_name: "Newcomers", description: "Start here", stream_names: ["Castle"] })).success();
    (await admin.delete(`/realm/profile_fields/${f2}`)).success();
    (await admin.delete(`/realm/filters/${l2}`)).success();
    const after = await page.catchUp();
    expect(after.default_channels).toEqual([]);
    expect(after.org!.default_channel_groups).toEqual([{ id: expect.any(Number), name: "Newcomers", description: "Start here", streams: [castle] }]);
    expect(after.profile_fields!.map((f) => f.name)).toEqual(["Squad"]);
    expect(after.org!.linkifiers.map((l) => l.id)).toEqual([l1]);
    expect(adminPart(after)).toEqual(await fresh("iago"));
  });

  test("an event of a kind the organization part does not know leaves it as it was", async () => {
    const page = await openPage("cordelia");
    const before = page.state.org;
    expect(applyEvent(page.state, { type: "realm", op: "update", property: "not_a_setting", value: 1 }).org).toBe(before);
    expect(applyEvent(page.state, { type: "channel_folder", op: "explode" }).org).toBe(before);
  });
});
