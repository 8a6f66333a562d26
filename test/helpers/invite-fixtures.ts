import { reloadRealm } from "../../src/app";
import type { TestServer } from "./server";

/**
 * Fixtures for the invitation and presence suites: channels written straight to the store (so these
 * suites do not depend on the channel endpoints) and organization settings changed in place.
 */

const GROUP_COLUMNS = [
  "can_add_subscribers_group", "can_remove_subscribers_group", "can_administer_channel_group", "can_delete_any_message_group",
  "can_delete_own_message_group", "can_send_message_group", "can_create_topic_group", "can_move_messages_out_of_channel_group",
  "can_move_messages_within_channel_group", "can_resolve_topics_group", "can_subscribe_group",
];

/** A channel with every permission group set to role:nobody unless `groups` says otherwise. */
export async function makeChannel(
  s: TestServer,
  name: string,
  subscriberIds: number[],
  opts: { inviteOnly?: boolean; isDefault?: boolean; archived?: boolean; groups?: Record<string, number> } = {},
): Promise<number> {
  const nobody = s.app.systemGroups.get("role:nobody")!;
  const realmId = s.app.realm!.id;
  const { lastId } = await s.app.db.run(
    `INSERT INTO streams (realm_id, name, invite_only, is_archived, date_created, ${GROUP_COLUMNS.join(", ")})
     VALUES (?, ?, ?, ?, 0, ${GROUP_COLUMNS.map(() => "?").join(", ")})`,
    [realmId, name, opts.inviteOnly ? 1 : 0, opts.archived ? 1 : 0, ...GROUP_COLUMNS.map((c) => opts.groups?.[c] ?? nobody)],
  );
  const recipient = await s.app.db.run("INSERT INTO recipients (type, type_id) VALUES (2, ?)", [lastId]);
  await s.app.db.run("UPDATE streams SET recipient_id = ? WHERE id = ?", [recipient.lastId, lastId]);
  for (const u of subscriberIds) await s.app.db.run("INSERT INTO subscriptions (user_id, stream_id, color) VALUES (?, ?, '#76ce90')", [u, lastId]);
  if (opts.isDefault) await s.app.db.run("INSERT INTO default_streams (realm_id, stream_id) VALUES (?, ?)", [realmId, lastId]);
  return lastId;
}

/** Changes organization settings (stored and cached); returns a function restoring the old values. */
export async function withRealmSettings(s: TestServer, changes: Record<string, unknown>): Promise<() => Promise<void>> {
  const row = await s.app.db.get<{ settings: string }>("SELECT settings FROM realm");
  await s.app.db.run("UPDATE realm SET settings = ?", [JSON.stringify({ ...JSON.parse(row!.settings), ...changes })]);
  await reloadRealm(s.app);
  return async () => {
    await s.app.db.run("UPDATE realm SET settings = ?", [row!.settings]);
    await reloadRealm(s.app);
  };
}

/** A system group's id ("role:members", ...). */
export const systemGroup = (s: TestServer, name: string) => s.app.systemGroups.get(name as never)!;
