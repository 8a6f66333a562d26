import { claimAttachments, applyAttachmentEffects } from "../../src/actions/attachments";
import { loadSharp } from "../../src/uploads/sharp";
import type { CastName, TestServer } from "./server";

/** The Authorization header of a named user. */
export const basicAuth = (s: TestServer, name: CastName) => ({ authorization: "Basic " + btoa(`${s.users[name].email}:${s.users[name].apiKey}`) });

/** A raw request to the server (outside /api/v1 too); `as` adds Basic credentials. */
export async function fetchRaw(s: TestServer, path: string, opts: { as?: CastName; method?: string; headers?: Record<string, string>; body?: BodyInit | null } = {}): Promise<Response> {
  const headers = { ...(opts.as ? basicAuth(s, opts.as) : {}), ...(opts.headers ?? {}) };
  return s.server.handle(new Request(new URL(path, "http://parley.test"), { method: opts.method ?? "GET", headers, body: opts.body ?? undefined }));
}

/** Uploads one file through POST /user_uploads as `name` and returns the success body. */
export async function upload(s: TestServer, name: CastName, fileName: string, data: BlobPart | Uint8Array, type = "application/octet-stream") {
  return (await s.users[name].client.post("/user_uploads", { file: new File([data as BlobPart], fileName, { type }) })).success() as { url: string; uri: string; filename: string };
}

/** The path id of an upload URL. */
export const pathIdOf = (url: string) => url.replace(/^\/user_uploads\//, "").split("/").map(decodeURIComponent).join("/");

/** A PNG of the given size, made with sharp. */
export async function makePng(width: number, height: number, color = "#3366cc"): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer();
}

/** An animated GIF with `frames` frames of alternating colours. */
export async function makeAnimatedGif(width: number, height: number, frames = 3): Promise<Buffer> {
  const sharp = await loadSharp();
  const parts = await Promise.all(
    Array.from({ length: frames }, (_, i) => sharp({ create: { width, height, channels: 4, background: i % 2 ? "#ff0000" : "#0000ff" } }).raw().toBuffer()),
  );
  return sharp(Buffer.concat(parts), { raw: { width, height: height * frames, channels: 4, pageHeight: height } as any })
    .gif({ delay: Array(frames).fill(100), loop: 0 })
    .toBuffer();
}

/** Image facts (sharp metadata) of bytes. */
export async function imageMeta(data: Uint8Array) {
  const sharp = await loadSharp();
  return sharp(data, { animated: true }).metadata();
}

let topicCounter = 0;

/**
 * A message written straight to the store with user_messages rows for `holders`, linking the given
 * uploads through claimAttachments (as the messages area does when it sends). Returns its id.
 */
export async function linkInMessage(
  s: TestServer,
  m: { sender: CastName; streamId?: number; dmWith?: CastName[]; holders: CastName[]; paths: string[]; dateSent?: number },
): Promise<{ messageId: number; claimed: number[] }> {
  const db = s.app.db;
  const senderId = s.users[m.sender].id;
  let recipientId: number;
  let dmKey: string | null = null;
  let stream: { invite_only: number; is_web_public: number } | undefined;
  if (m.streamId !== undefined) {
    stream = await db.get<{ recipient_id: number; invite_only: number; is_web_public: number }>("SELECT recipient_id, invite_only, is_web_public FROM streams WHERE id = ?", [m.streamId]);
    recipientId = (stream as any).recipient_id;
  } else {
    const other = s.users[m.dmWith![0]!].id;
    recipientId = (await db.get<{ recipient_id: number }>("SELECT recipient_id FROM users WHERE id = ?", [other]))!.recipient_id;
    dmKey = [...new Set([senderId, ...m.dmWith!.map((n) => s.users[n].id)])].sort((a, b) => a - b).join(",");
  }
  const content = m.paths.map((p) => `[file](/user_uploads/${p})`).join(" ");
  const r = await db.tx(async (sql) => {
    const { lastId } = await sql.run(
      "INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, dm_key, topic, content, rendered_content, date_sent, has_attachment) VALUES (?, ?, ?, ?, ?, ?, ?, '<p>file</p>', ?, 1)",
      [s.app.realm!.id, senderId, recipientId, m.streamId ?? null, dmKey, `t${++topicCounter}`, content, m.dateSent ?? s.clock.now() / 1000],
    );
    for (const h of m.holders) await sql.run("INSERT INTO user_messages (user_id, message_id) VALUES (?, ?)", [s.users[h].id, lastId]);
    const { claimed, effects } = await claimAttachments(sql, s.app, {
      messageId: lastId,
      senderId,
      uploadPaths: m.paths,
      isRealmPublic: Boolean(stream && !stream.invite_only),
      isWebPublic: Boolean(stream?.is_web_public),
    });
    return { messageId: lastId, claimed, effects };
  });
  await applyAttachmentEffects(s.app, r.effects);
  return { messageId: r.messageId, claimed: r.claimed };
}
