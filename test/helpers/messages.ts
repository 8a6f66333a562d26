import type { CastName, TestServer } from "./server";

/** Sends a channel message through the API and returns its id. */
export async function sendStream(s: TestServer, from: CastName, stream: string | number, topic: string, content: string, extra: Record<string, unknown> = {}): Promise<number> {
  const r = await s.users[from].client.post("/messages", { type: "stream", to: typeof stream === "number" ? stream : stream, topic, content, ...extra } as any);
  return r.success().id;
}

/** Sends a direct message through the API and returns its id. */
export async function sendDm(s: TestServer, from: CastName, to: CastName[], content: string, extra: Record<string, unknown> = {}): Promise<number> {
  const r = await s.users[from].client.post("/messages", { type: "direct", to: to.map((n) => s.users[n].id), content, ...extra } as any);
  return r.success().id;
}

/** A user's flags bitmask for a message (undefined: no row). */
export async function flagsOf(s: TestServer, user: CastName, messageId: number): Promise<number | undefined> {
  return (await s.app.db.get<{ flags: number }>("SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?", [s.users[user].id, messageId]))?.flags;
}

/** Who has a user_messages row for the message, sorted. */
export async function holdersOf(s: TestServer, messageId: number): Promise<number[]> {
  return (await s.app.db.all<{ user_id: number }>("SELECT user_id FROM user_messages WHERE message_id = ? ORDER BY user_id", [messageId])).map((r) => r.user_id);
}

/** The stored message row. */
export async function messageRow(s: TestServer, id: number) {
  return s.app.db.get<Record<string, any>>("SELECT * FROM messages WHERE id = ?", [id]);
}

/** Registers an event queue through the API (the way clients do) and returns its id. */
export async function registerQueue(s: TestServer, who: CastName, params: Record<string, unknown> = {}): Promise<string> {
  return (await s.users[who].client.post("/register", params as any)).success().queue_id;
}

/**
 * The events waiting in a queue (without blocking). `unvalidated` skips the OpenAPI check, for
 * fields Zulip sends but does not document (local_message_id).
 */
export async function queueEvents(s: TestServer, who: CastName, queueId: string, unvalidated = false): Promise<any[]> {
  const params = { queue_id: queueId, last_event_id: -1, dont_block: true };
  if (!unvalidated) return (await s.users[who].client.get("/events", params)).success().events;
  return (await s.users[who].client.request("GET", "/api/v1/events", params, { raw: true })).success().events;
}
