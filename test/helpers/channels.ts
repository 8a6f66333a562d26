import type { CastName, TestServer } from "./server";

export interface ChannelOptions {
  description?: string;
  invite_only?: boolean;
  is_web_public?: boolean;
  history_public_to_subscribers?: boolean;
  is_default_stream?: boolean;
  /** other users to subscribe along with the creator (cast names) */
  subscribers?: CastName[];
  /** any other POST /users/me/subscriptions parameter (can_*_group, folder_id, ...) */
  extra?: Record<string, unknown>;
}

/** Creates a channel through the API as `ownerName` (who is subscribed) and returns its id. */
export async function createChannel(s: TestServer, ownerName: CastName, name: string, opts: ChannelOptions = {}): Promise<number> {
  const principals = opts.subscribers?.length ? [s.users[ownerName].id, ...opts.subscribers.map((n) => s.users[n].id)] : undefined;
  const params: Record<string, unknown> = {
    subscriptions: [{ name, description: opts.description ?? "" }],
    principals,
    invite_only: opts.invite_only,
    is_web_public: opts.is_web_public,
    history_public_to_subscribers: opts.history_public_to_subscribers,
    is_default_stream: opts.is_default_stream,
    ...opts.extra,
  };
  (await s.users[ownerName].client.post("/users/me/subscriptions", params as any)).success();
  return channelId(s, name);
}

/** A channel's id by name, straight from the database. */
export async function channelId(s: TestServer, name: string): Promise<number> {
  const row = await s.app.db.get<{ id: number }>("SELECT id FROM streams WHERE name = ? COLLATE NOCASE", [name]);
  if (!row) throw new Error(`no channel ${name}`);
  return row.id;
}

/** Subscribes a user to existing channels by name (as themselves). */
export async function subscribeTo(s: TestServer, userName: CastName, ...names: string[]): Promise<void> {
  (await s.users[userName].client.post("/users/me/subscriptions", { subscriptions: names.map((name) => ({ name })) })).success();
}

/** Active subscriber ids of a channel, from the database. */
export async function subscriberIds(s: TestServer, streamId: number): Promise<number[]> {
  return (await s.app.db.all<{ user_id: number }>("SELECT user_id FROM subscriptions WHERE stream_id = ? AND active = 1 ORDER BY user_id", [streamId])).map((r) => r.user_id);
}
