import type { TestServer } from "./server";

/** Posts to /api/v1/external/<integration> the way a tool does: a raw body, the key in the URL (unless `auth` says otherwise). */
export async function postWebhook(
  s: TestServer,
  integration: string,
  query: Record<string, string>,
  body: string | object,
  opts: { headers?: Record<string, string>; contentType?: string } = {},
) {
  const url = new URL(`/api/v1/external/${integration}`, "http://parley.test");
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const response = await s.server.handle(
    new Request(url, { method: "POST", headers: { "content-type": opts.contentType ?? "application/json", ...(opts.headers ?? {}) }, body: text }),
  );
  return { status: response.status, json: (await response.json()) as any };
}

/** The newest message's row (content, topic, sender, where). */
export const lastMessage = (s: TestServer) =>
  s.app.db.get<{ id: number; sender_id: number; stream_id: number | null; topic: string; content: string; client: string; dm_key: string | null }>(
    "SELECT id, sender_id, stream_id, topic, content, client, dm_key FROM messages ORDER BY id DESC LIMIT 1",
  );

export const messageCount = async (s: TestServer) => (await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM messages"))!.n;
