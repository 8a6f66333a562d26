/**
 * The reducer for the events the settings screens depend on, case by case (settings-consistency.test.ts
 * checks the same against a live server): a privacy change with its companion fields, per-channel push
 * and email choices, bots added, updated and removed, a group's description and permissions, default
 * channels, channel folders, custom profile fields and a person's value of one.
 */
import { describe, expect, test } from "bun:test";
import { applyEvent } from "../../assets/app/state/apply-event";
import type { State } from "../../assets/app/state/types";
import { sampleState } from "./fixtures";

const base = (): State => ({ ...sampleState(), bots: {}, default_channels: [], channel_folders: {}, profile_fields: [] });

describe("channels", () => {
  test("a privacy change brings the history and web-public fields with it, on the channel and the subscription", () => {
    const s = applyEvent(base(), { type: "stream", op: "update", stream_id: 12, name: "general", property: "invite_only", value: true, history_public_to_subscribers: false, is_web_public: false });
    expect(s.channels[12]).toMatchObject({ invite_only: true, history_public_to_subscribers: false, is_web_public: false });
    expect(s.subscriptions[12]).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
  });

  test("posting and removal permissions, folder and retention are kept; unknown properties change nothing", () => {
    let s = applyEvent(base(), { type: "stream", op: "update", stream_id: 12, name: "general", property: "can_send_message_group", value: { direct_members: [5, 4], direct_subgroups: [] } });
    s = applyEvent(s, { type: "stream", op: "update", stream_id: 12, name: "general", property: "can_remove_subscribers_group", value: 11 });
    s = applyEvent(s, { type: "stream", op: "update", stream_id: 12, name: "general", property: "folder_id", value: 3 });
    s = applyEvent(s, { type: "stream", op: "update", stream_id: 12, name: "general", property: "message_retention_days", value: 30 });
    expect(s.channels[12]).toMatchObject({ can_send_message_group: { direct_members: [4, 5], direct_subgroups: [] }, can_remove_subscribers_group: 11, folder_id: 3, message_retention_days: 30 });
    expect(applyEvent(s, { type: "stream", op: "update", stream_id: 12, name: "general", property: "stream_weekly_traffic", value: 4 })).toBe(s);
  });

  test("push and email choices of a subscription follow their events", () => {
    let s = applyEvent(base(), { type: "subscription", op: "update", stream_id: 12, property: "push_notifications", value: true });
    s = applyEvent(s, { type: "subscription", op: "update", stream_id: 12, property: "email_notifications", value: false });
    expect(s.subscriptions[12]).toMatchObject({ push_notifications: true, email_notifications: false });
  });

  test("default channels and folders follow their events", () => {
    let s = applyEvent(base(), { type: "default_streams", default_streams: [14, 12] });
    expect(s.default_channels).toEqual([12, 14]);
    s = applyEvent(s, { type: "channel_folder", op: "add", channel_folder: { id: 3, name: "Teams", description: "", is_archived: false } });
    s = applyEvent(s, { type: "channel_folder", op: "update", channel_folder_id: 3, data: { name: "Squads", is_archived: true } });
    expect(s.channel_folders).toEqual({ 3: { id: 3, name: "Squads", description: "", is_archived: true } });
  });
});

describe("bots", () => {
  const bot = { user_id: 20, full_name: "Ghost", email: "ghost-bot@x", bot_type: 1, is_active: true, api_key: "k1", owner_id: 4, avatar_url: null, services: [], default_sending_stream: null };

  test("added, given a new key and name, deactivated, then removed from the list", () => {
    let s = applyEvent(base(), { type: "realm_bot", op: "add", bot });
    expect(s.bots![20]).toEqual({ user_id: 20, full_name: "Ghost", email: "ghost-bot@x", bot_type: 1, is_active: true, api_key: "k1", owner_id: 4, avatar_url: null });
    s = applyEvent(s, { type: "realm_bot", op: "update", bot: { user_id: 20, api_key: "k2" } });
    s = applyEvent(s, { type: "realm_bot", op: "update", bot: { user_id: 20, full_name: "Spectre" } });
    s = applyEvent(s, { type: "realm_bot", op: "update", bot: { user_id: 20, is_active: false } });
    expect(s.bots![20]).toMatchObject({ api_key: "k2", full_name: "Spectre", is_active: false });
    expect(applyEvent(s, { type: "realm_bot", op: "update", bot: { user_id: 99, api_key: "x" } })).toBe(s);
    expect(applyEvent(s, { type: "realm_bot", op: "delete", bot: { user_id: 20 } }).bots).toEqual({});
  });
});

describe("people and groups", () => {
  test("a role change, a deactivation and a custom profile value reach the person", () => {
    let s = applyEvent(base(), { type: "realm_user", op: "update", person: { user_id: 5, role: 300 } });
    s = applyEvent(s, { type: "realm_user", op: "update", person: { user_id: 5, is_active: false } });
    s = applyEvent(s, { type: "custom_profile_fields", fields: [{ id: 2, name: "Team", type: 1, hint: "", field_data: "", order: 2 }, { id: 1, name: "Pronouns", type: 8, hint: "", field_data: "", order: 1 }] });
    expect(s.profile_fields!.map((f) => f.name)).toEqual(["Pronouns", "Team"]);
    s = applyEvent(s, { type: "realm_user", op: "update", person: { user_id: 5, custom_profile_field: { id: 2, value: "Venice" } } });
    expect(s.users[5]).toMatchObject({ role: 300, is_active: false, profile_data: { 2: { value: "Venice" } } });
    s = applyEvent(s, { type: "realm_user", op: "update", person: { user_id: 5, custom_profile_field: { id: 2, value: null } } });
    expect(s.users[5]!.profile_data).toEqual({});
  });

  test("a group's description and permissions follow its update events", () => {
    let s = applyEvent(base(), { type: "user_group", op: "add", group: { id: 30, name: "Crew", description: "", members: [4], direct_subgroup_ids: [], is_system_group: false, can_manage_group: { direct_members: [4], direct_subgroups: [] }, can_join_group: 12 } });
    s = applyEvent(s, { type: "user_group", op: "update", group_id: 30, data: { description: "Backstage", can_join_group: 3 } });
    expect(s.groups[30]).toMatchObject({ name: "Crew", description: "Backstage", settings: { can_manage_group: { direct_members: [4], direct_subgroups: [] }, can_join_group: 3 } });
    expect(applyEvent(s, { type: "user_group", op: "update", group_id: 30, data: { deactivated: true } }).groups[30]).toBeUndefined();
  });
});
