// A hand-written organization export in the shape Zulip Cloud's export has (realm.json with its
// tables, messages-000001.json, attachment.json, uploads/, emoji/ and avatars/ with records.json,
// all under one zulip-export-... folder), including fields Parley has no place for.
import { createHash } from "node:crypto";
import { TarWriter } from "../../src/lib/tar";

export type Files = Record<string, string | Uint8Array | object>;

/** Writes `files` (JSON for objects) into a .tar.gz under `top/`. */
export async function writeExport(path: string, files: Files, top = "zulip-export-qz4v1mbb") {
  const w = new TarWriter(path, { gzip: true });
  for (const [name, value] of Object.entries(files)) {
    const bytes = typeof value === "string" ? new TextEncoder().encode(value) : value instanceof Uint8Array ? value : new TextEncoder().encode(JSON.stringify(value));
    await w.addBuffer(top ? `${top}/${name}` : name, bytes);
  }
  await w.finish();
}

const T0 = 1714000000;
export const NOTES_BYTES = new TextEncoder().encode("minutes of the kick-off\n");

/** Zulip's system groups of realm 2 (ids 11..18), as Zulip 10 exports them. */
const SYSTEM = ["role:internet", "role:everyone", "role:members", "role:fullmembers", "role:moderators", "role:administrators", "role:owners", "role:nobody"];

export function cloudExport(emojiPng: Uint8Array): Files {
  const user = (id: number, name: string, email: string, role: number, extra: Record<string, unknown> = {}) => ({
    id, realm: 2, email: `user${id}@acme.zulipchat.com`, delivery_email: email, full_name: name, role, is_active: true, is_bot: false, bot_type: null,
    bot_owner: null, date_joined: T0 - 86400 * id, timezone: "Europe/Berlin", avatar_source: "G", avatar_version: 1, is_mirror_dummy: false,
    // fields Parley has no place for, as Zulip Cloud exports them
    last_login: T0, tos_version: "1.0", long_term_idle: false, last_active_message_id: null, onboarding_steps: [], is_billing_admin: false,
    user_permissions: [], groups: [], recipient: 100 + id, twenty_four_hour_time: id === 4, enter_sends: true, default_language: "en",
    ...extra,
  });
  const sub = (id: number, user: number, recipient: number, extra: Record<string, unknown> = {}) => ({
    id, user_profile: user, recipient, active: true, is_user_active: true, color: "#76ce90", is_muted: false, pin_to_top: false,
    desktop_notifications: null, audible_notifications: null, push_notifications: null, email_notifications: null, wildcard_mentions_notify: null, ...extra,
  });
  const groupId = (name: string) => 11 + SYSTEM.indexOf(name);
  const realm = {
    zerver_realm: [{
      id: 2, string_id: "acme", name: "Acme Rockets", description: "We build **rockets**", date_created: T0 - 86400 * 30, deactivated: false,
      org_type: 10, plan_type: 2, max_invites: 100, message_content_edit_limit_seconds: 3600, allow_message_editing: true, invite_required: false,
      new_stream_announcements_stream: 31, signup_announcements_stream: null, can_add_custom_emoji_group: groupId("role:administrators"),
      uuid: "3d1a4f0e-ffff-4a4b-9c0d-000000000000", push_notifications_enabled: true,
    }],
    zerver_client: [{ id: 1, name: "website" }],
    zerver_userprofile: [
      user(4, "Ada Owner", "ada@acme.test", 100, { favourite_colour: "teal" }),
      user(5, "Bo Admin", "bo@acme.test", 200),
      user(6, "Cy Moderator", "cy@acme.test", 300),
      user(7, "Di Member", "di@acme.test", 400),
      user(8, "Ed Guest", "ed@acme.test", 600),
      user(9, "Fay Former", "fay@acme.test", 400, { is_active: false }),
      user(10, "Deploy Bot", "deploy-bot@acme.zulipchat.com", 400, { is_bot: true, bot_type: 1, bot_owner: 5 }),
    ],
    zerver_userprofile_mirrordummy: [],
    zerver_userprofile_crossrealm: [{ id: 1, email: "notification-bot@zulip.com", recipient_id: 1 }, { id: 3, email: "welcome-bot@zulip.com", recipient_id: 3 }],
    zerver_stream: [
      { id: 31, realm: 2, name: "general", description: "Everything", rendered_description: "<p>Everything</p>", invite_only: false, is_web_public: false, history_public_to_subscribers: true, date_created: T0 - 86400 * 30, creator: 4, message_retention_days: null, deactivated: false, recipient: 131, first_message_id: 1001, email_token: "abc", stream_post_policy: 1, can_remove_subscribers_group: groupId("role:administrators") },
      { id: 33, realm: 2, name: "old-rockets", description: "Before the move", rendered_description: "", invite_only: false, is_web_public: false, history_public_to_subscribers: true, date_created: T0 - 86400 * 25, creator: 4, message_retention_days: null, deactivated: true, recipient: 133, first_message_id: null, email_token: "ghi", stream_post_policy: 1, can_remove_subscribers_group: groupId("role:administrators") },
      { id: 32, realm: 2, name: "launch", description: "Secret launch plans", rendered_description: "", invite_only: true, is_web_public: false, history_public_to_subscribers: false, date_created: T0 - 86400 * 20, creator: 5, message_retention_days: 30, deactivated: false, recipient: 132, first_message_id: 1004, email_token: "def", stream_post_policy: 1, can_remove_subscribers_group: groupId("role:administrators") },
    ],
    zerver_recipient: [
      ...[4, 5, 6, 7, 8, 9, 10].map((u) => ({ id: 100 + u, type: 1, type_id: u })),
      { id: 131, type: 2, type_id: 31 },
      { id: 132, type: 2, type_id: 32 },
      { id: 133, type: 2, type_id: 33 },
      { id: 141, type: 3, type_id: 41 },
    ],
    zerver_huddle: [{ id: 41, huddle_hash: createHash("sha1").update("4,5,7").digest("hex"), group_size: 3, recipient: 141 }],
    zerver_subscription: [
      ...[4, 5, 6, 7, 8, 9, 10].map((u) => sub(u, u, 100 + u)),
      sub(20, 4, 131), sub(21, 5, 131, { color: "#e79ab5", pin_to_top: true }), sub(22, 6, 131), sub(23, 7, 131, { is_muted: true, desktop_notifications: true }), sub(24, 8, 131), sub(25, 9, 131, { active: false }),
      sub(50, 4, 133),
      sub(30, 4, 132), sub(31, 5, 132, { color: "#a6c7e5" }),
      sub(40, 4, 141), sub(41, 5, 141), sub(42, 7, 141),
    ],
    zerver_usergroup: [...SYSTEM.map((_, i) => ({ id: 11 + i, realm: 2 })), { id: 51, realm: 2 }, { id: 52, realm: 2 }],
    zerver_namedusergroup: [
      ...SYSTEM.map((name, i) => ({ usergroup_ptr: 11 + i, realm_for_sharding: 2, name, description: "", is_system_group: true, deactivated: false, creator: null, date_created: T0, can_mention_group: 18 })),
      { usergroup_ptr: 51, realm_for_sharding: 2, name: "rocketeers", description: "Build the rockets", is_system_group: false, deactivated: false, creator: 4, date_created: T0 - 100, can_mention_group: 12 },
      { usergroup_ptr: 52, realm_for_sharding: 2, name: "everyone-building", description: "Rocketeers and friends", is_system_group: false, deactivated: false, creator: 4, date_created: T0 - 50, can_mention_group: 12 },
    ],
    zerver_usergroupmembership: [{ id: 1, user_group: 51, user_profile: 6 }, { id: 2, user_group: 51, user_profile: 7 }, { id: 3, user_group: 52, user_profile: 8 }, { id: 4, user_group: 17, user_profile: 4 }],
    zerver_groupgroupmembership: [{ id: 1, supergroup: 52, subgroup: 51 }, { id: 2, supergroup: 16, subgroup: 17 }],
    zerver_realmemoji: [{ id: 61, realm: 2, author: 5, name: "rocket_logo", file_name: "61.png", deactivated: false, is_animated: false }],
    zerver_realmfilter: [{ id: 71, realm: 2, pattern: "RKT-(?P<id>[0-9]+)", url_template: "https://issues.acme.test/RKT-{id}", order: 0 }],
    zerver_customprofilefield: [
      { id: 81, realm: 2, name: "Team", hint: "Which team", field_type: 1, field_data: "", order: 1, display_in_profile_summary: true, required: false, editable_by_user: true },
      { id: 82, realm: 2, name: "Mentor", hint: "", field_type: 6, field_data: "", order: 2, display_in_profile_summary: false, required: false, editable_by_user: true },
    ],
    zerver_customprofilefieldvalue: [
      { id: 1, user_profile: 7, field: 81, value: "Propulsion", rendered_value: "<p>Propulsion</p>" },
      { id: 2, user_profile: 7, field: 82, value: "[6]", rendered_value: null },
    ],
    zerver_defaultstream: [{ id: 1, realm: 2, stream: 31 }],
    zerver_reaction: [
      { id: 1, user_profile: 5, message: 1001, emoji_name: "rocket_logo", emoji_code: "61", reaction_type: "realm_emoji" },
      { id: 2, user_profile: 7, message: 1001, emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji" },
    ],
    zerver_usertopic: [{ id: 1, user_profile: 6, stream: 31, recipient: 131, topic_name: "lunch", last_updated: T0, visibility_policy: 1 }],
    zerver_muteduser: [],
    zerver_alertword: [{ id: 1, user_profile: 7, realm: 2, word: "launch" }],
    zerver_realmauditlog: [{ id: 1, realm: 2, event_type: 101, event_time: T0 }],
    zerver_realmdomain: [],
    zerver_userpresence: [],
    zerver_useractivity: [],
  };
  const message = (id: number, sender: number, recipient: number, subject: string, content: string, rendered: string | null, date: number, extra: Record<string, unknown> = {}) => ({
    id, sender, recipient, realm: 2, subject, content, rendered_content: rendered, rendered_content_version: rendered ? 1 : null, date_sent: date,
    last_edit_time: null, edit_history: null, has_attachment: false, has_image: false, has_link: false, sending_client: 1, type: 1, is_channel_message: recipient > 130 && recipient < 140, search_tsvector: "'x':1", ...extra,
  });
  const messages = {
    zerver_message: [
      message(1001, 4, 131, "kick-off", "Welcome to **Acme**! Notes: [notes.txt](/user_uploads/2/ab/Xy12notes/notes.txt)", '<p>Welcome to <strong>Acme</strong>! Notes: <a href="/user_uploads/2/ab/Xy12notes/notes.txt">notes.txt</a></p>', T0, { has_attachment: true, has_link: true }),
      message(1002, 7, 131, "kick-off", "Thanks @**Ada Owner**, see RKT-12", null, T0 + 60, {
        last_edit_time: T0 + 120,
        edit_history: JSON.stringify([{ user_id: 7, timestamp: T0 + 120, prev_content: "Thanks Ada", prev_rendered_content: "<p>Thanks Ada</p>", prev_rendered_content_version: 1 }]),
      }),
      message(1003, 3, 107, "", "Hi Di, welcome to Acme Rockets!", "<p>Hi Di, welcome to Acme Rockets!</p>", T0 + 90),
      message(1004, 5, 132, "countdown", "T-minus 10 days, @**Ada Owner** in #**general>kick-off** :rocket_logo:",
        '<p>T-minus 10 days, <span class="user-mention" data-user-id="4">@Ada Owner</span> in <a class="stream-topic" data-stream-id="31" href="/#narrow/channel/31-general/topic/kick-off">#general &gt; kick-off</a> <img alt=":rocket_logo:" class="emoji" src="/user_avatars/2/emoji/images/61.png" title="rocket logo"></p>', T0 + 180),
      message(1005, 5, 141, "", "Lunch for the three of us?", "<p>Lunch for the three of us?</p>", T0 + 240),
      message(1006, 5, 107, "", "Your badge is ready", "<p>Your badge is ready</p>", T0 + 300),
    ],
    zerver_usermessage: [
      ...[4, 5, 6, 7, 8].map((u, i) => ({ id: 1 + i, user_profile: u, message: 1001, flags_mask: u === 4 ? 1 : u === 7 ? 2 : 0 })),
      ...[4, 5, 6, 7, 8].map((u, i) => ({ id: 10 + i, user_profile: u, message: 1002, flags_mask: u === 7 ? 1 : u === 4 ? 8 : 0 })),
      { id: 20, user_profile: 7, message: 1003, flags_mask: 0 },
      { id: 21, user_profile: 4, message: 1004, flags_mask: 1 | 512 }, { id: 22, user_profile: 5, message: 1004, flags_mask: 1 },
      { id: 23, user_profile: 4, message: 1005, flags_mask: 1 | 2 }, { id: 24, user_profile: 5, message: 1005, flags_mask: 1 }, { id: 25, user_profile: 7, message: 1005, flags_mask: 2048 },
      { id: 26, user_profile: 5, message: 1006, flags_mask: 1 }, { id: 27, user_profile: 7, message: 1006, flags_mask: 2048 | 1 },
    ],
  };
  return {
    "realm.json": realm,
    "messages-000001.json": messages,
    "attachment.json": { zerver_attachment: [{ id: 91, owner: 4, realm: 2, file_name: "notes.txt", path_id: "2/ab/Xy12notes/notes.txt", size: NOTES_BYTES.length, create_time: T0 - 10, is_realm_public: true, is_web_public: false, messages: [1001], scheduled_messages: [], content_type: "text/plain" }] },
    "uploads/records.json": [{ path: "2/ab/Xy12notes/notes.txt", s3_path: "2/ab/Xy12notes/notes.txt", realm_id: 2, user_profile_id: 4, size: NOTES_BYTES.length, last_modified: T0 - 10, content_type: "text/plain" }],
    "uploads/2/ab/Xy12notes/notes.txt": NOTES_BYTES,
    "emoji/records.json": [{ path: "2/emoji/images/61.png", s3_path: "2/emoji/images/61.png", file_name: "61.png", realm_id: 2, user_profile_id: 5 }],
    "emoji/2/emoji/images/61.png": emojiPng,
    "avatars/records.json": [{ path: "2/5f3e9.png", s3_path: "2/5f3e9", realm_id: 2, user_profile_id: 5, user_profile_email: "bo@acme.test", content_type: "image/png", last_modified: T0 }],
    "avatars/2/5f3e9.png": emojiPng,
  };
}
