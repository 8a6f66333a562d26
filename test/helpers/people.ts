import { createUser } from "../../src/actions/users";
import { ROLE } from "../../src/domain/roles";
import type { TestServer } from "./server";

let counter = 0;

/** A fresh user (their own email), with a client. */
export async function makeUser(s: TestServer, name: string, role: number = ROLE.member) {
  const email = `${name.toLowerCase().replace(/[^a-z0-9]/g, "")}${++counter}@zulip.com`;
  const u = await createUser(s.app, null, { email, fullName: name, password: null, role });
  return { id: u.userId, email, apiKey: u.apiKey, client: s.clientFor(email, u.apiKey) };
}

/** A channel written straight to the store (every permission group role:nobody), with subscribers. */
export async function makeStream(s: TestServer, name: string, subscriberIds: number[], opts: { inviteOnly?: boolean } = {}) {
  const nobody = s.app.systemGroups.get("role:nobody")!;
  const realmId = s.app.realm!.id;
  const cols = [
    "can_add_subscribers_group", "can_remove_subscribers_group", "can_administer_channel_group", "can_delete_any_message_group",
    "can_delete_own_message_group", "can_send_message_group", "can_create_topic_group", "can_move_messages_out_of_channel_group",
    "can_move_messages_within_channel_group", "can_resolve_topics_group", "can_subscribe_group",
  ];
  const { lastId } = await s.app.db.run(
    `INSERT INTO streams (realm_id, name, invite_only, date_created, ${cols.join(", ")}) VALUES (?, ?, ?, ?, ${cols.map(() => "?").join(", ")})`,
    [realmId, name, opts.inviteOnly ? 1 : 0, 0, ...cols.map(() => nobody)],
  );
  const recipient = await s.app.db.run("INSERT INTO recipients (type, type_id) VALUES (2, ?)", [lastId]);
  await s.app.db.run("UPDATE streams SET recipient_id = ? WHERE id = ?", [recipient.lastId, lastId]);
  for (const u of subscriberIds) await s.app.db.run("INSERT INTO subscriptions (user_id, stream_id, color) VALUES (?, ?, '#76ce90')", [u, lastId]);
  return lastId;
}

/** A message written straight to the store, with user_messages rows for `holders`. */
export async function insertMessage(s: TestServer, m: { senderId: number; streamId?: number; topic?: string; dmWith?: number[]; holders: number[] }) {
  const realmId = s.app.realm!.id;
  let recipientId: number;
  let dmKey: string | null = null;
  if (m.streamId !== undefined) {
    recipientId = (await s.app.db.get<{ recipient_id: number }>("SELECT recipient_id FROM streams WHERE id = ?", [m.streamId]))!.recipient_id;
  } else {
    const other = m.dmWith![0]!;
    recipientId = (await s.app.db.get<{ recipient_id: number }>("SELECT recipient_id FROM users WHERE id = ?", [other]))!.recipient_id;
    dmKey = [...new Set([m.senderId, ...m.dmWith!])].sort((a, b) => a - b).join(",");
  }
  const { lastId } = await s.app.db.run(
    "INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, dm_key, topic, content, rendered_content, date_sent) VALUES (?, ?, ?, ?, ?, ?, 'hi', '<p>hi</p>', 0)",
    [realmId, m.senderId, recipientId, m.streamId ?? null, dmKey, m.topic ?? ""],
  );
  for (const u of m.holders) await s.app.db.run("INSERT INTO user_messages (user_id, message_id) VALUES (?, ?)", [u, lastId]);
  return lastId;
}

/** Writes realm settings directly (tests that need a setting before PATCH /realm is exercised). */
export async function setRealmSettings(s: TestServer, changes: Record<string, unknown>) {
  const { reloadRealm } = await import("../../src/app");
  const row = await s.app.db.get<{ settings: string }>("SELECT settings FROM realm");
  await s.app.db.run("UPDATE realm SET settings = ?", [JSON.stringify({ ...JSON.parse(row!.settings), ...changes })]);
  await reloadRealm(s.app);
}
