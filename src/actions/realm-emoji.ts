/**
 * Custom emoji (GET /realm/emoji, POST and DELETE /realm/emoji/{name}), following Zulip's
 * zerver/views/realm_emoji.py: name rules, the organization's can_add_custom_emoji_group, images
 * resized with sharp to 64×64 (animated ones keep their animation and get a still PNG), and the
 * `realm_emoji` update event carrying the whole set.
 */
import { readFile, rm } from "node:fs/promises";
import { realmOf, type App } from "../app";
import { isUnicodeEmojiName } from "../domain/emoji";
import { isAdmin } from "../domain/roles";
import { badRequest, notFound } from "../errors";
import { listUsers, type UserRow } from "../store/users";
import { deactivateRealmEmoji, findActiveRealmEmoji, findRealmEmojiByFile, insertRealmEmoji, listRealmEmoji, type RealmEmojiRow } from "../store/realm-emoji";
import { sniffContentType, THUMBNAIL_TYPES } from "../uploads/content-type";
import type { StoredFile } from "../uploads/file-response";
import { multipartBoundary } from "../uploads/multipart";
import { uploadsOf } from "../uploads/runtime";
import { BadImageError, resizeEmoji } from "../uploads/thumbnails";
import { hasRealmPermission } from "./channel-access";
import { receiveOneFile } from "./uploads";

/** Zulip's MAX_EMOJI_FILE_SIZE_MIB and DEFAULT_EMOJI_SIZE. */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;
export const EMOJI_SIZE = 64;

const emojiBase = (realmId: number) => `/user_avatars/${realmId}/emoji/images`;

export function realmEmojiDict(e: RealmEmojiRow) {
  const base = emojiBase(e.realm_id);
  return {
    id: String(e.id),
    name: e.name,
    source_url: `${base}/${e.file_name}`,
    still_url: e.is_animated ? `${base}/still/${e.id}.png` : null,
    deactivated: Boolean(e.deactivated),
    author_id: e.author_id,
  };
}

/** Every custom emoji of the organization (deactivated ones too), keyed by id. */
export async function realmEmojiMap(app: App): Promise<Record<string, ReturnType<typeof realmEmojiDict>>> {
  const out: Record<string, ReturnType<typeof realmEmojiDict>> = {};
  for (const e of await listRealmEmoji(app.db, realmOf(app).id)) out[String(e.id)] = realmEmojiDict(e);
  return out;
}

/** `Party Parrot ` → `party_parrot` (spaces are underscores; case does not matter). */
export const normalizeEmojiName = (name: string) => name.trim().replace(/ /g, "_").toLowerCase();

/** Zulip's check_valid_emoji_name. */
export function checkEmojiName(name: string): void {
  if (!name) throw badRequest("Emoji name is missing");
  if (/^[0-9a-z_-]+$/.test(name) && /[0-9a-z]$/.test(name)) return;
  if (/^[0-9a-z_-]+$/.test(name)) throw badRequest("Emoji names must end with either a letter or digit.");
  throw badRequest("Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.");
}

async function publishRealmEmoji(app: App): Promise<void> {
  const emoji = await realmEmojiMap(app);
  const users = (await listUsers(app.db, realmOf(app).id)).filter((u) => u.is_active).map((u) => u.id);
  app.events.publish({ type: "realm_emoji", op: "update", realm_emoji: emoji }, users);
}

/** POST /realm/emoji/{emoji_name}: the body is one image file (multipart). */
export async function addRealmEmoji(app: App, me: UserRow, rawName: string, request: Request): Promise<void> {
  const realm = realmOf(app);
  const name = normalizeEmojiName(rawName);
  checkEmojiName(name);
  if (!hasRealmPermission(app, me, "can_add_custom_emoji_group")) throw badRequest("Insufficient permission");
  if (await findActiveRealmEmoji(app.db, realm.id, name)) throw badRequest("A custom emoji with this name already exists.");
  if (isUnicodeEmojiName(name) && !isAdmin(me.role)) throw badRequest("Only administrators can override default emoji.");
  const boundary = multipartBoundary(request.headers.get("content-type"));
  const limit = MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024;
  const tooLarge = () => badRequest(`Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`);
  if (Number(request.headers.get("content-length") ?? 0) > limit + 64 * 1024) throw tooLarge();
  const exactlyOne = () => badRequest("You must upload exactly one file.");
  if (!boundary || !request.body) throw exactlyOne();
  const file = await receiveOneFile(app, request.body, boundary, { limit, tooLarge, tooMany: exactlyOne });
  if (!file) throw exactlyOne();
  let data: Buffer;
  try {
    data = await readFile(file.tempPath);
  } finally {
    await rm(file.tempPath, { force: true });
  }
  if (!THUMBNAIL_TYPES.has(await sniffContentType(file.head, file.fileName))) throw badRequest("Invalid image format");
  let resized;
  try {
    resized = await resizeEmoji(data, EMOJI_SIZE);
  } catch (e) {
    if (e instanceof BadImageError) throw badRequest(e.message);
    throw e;
  }
  const { storage } = uploadsOf(app);
  const written: string[] = [];
  try {
    await app.db.tx(async (sql) => {
      if (await findActiveRealmEmoji(sql, realm.id, name)) throw badRequest("A custom emoji with this name already exists.");
      const row = await insertRealmEmoji(sql, { realmId: realm.id, name, authorId: me.id, extension: resized.format, isAnimated: resized.still !== null });
      written.push(await storage.writeAtomic(`avatars/${realm.id}/emoji/images/${row.file_name}`, resized.image));
      if (resized.still) written.push(await storage.writeAtomic(`avatars/${realm.id}/emoji/images/still/${row.id}.png`, resized.still));
    });
  } catch (e) {
    for (const path of written) await rm(path, { force: true });
    throw e;
  }
  await publishRealmEmoji(app);
}

/** DELETE /realm/emoji/{emoji_name}: administrators, or the emoji's author. The image stays for old messages. */
export async function removeRealmEmoji(app: App, me: UserRow, rawName: string): Promise<void> {
  const realm = realmOf(app);
  const name = normalizeEmojiName(rawName);
  await app.db.tx(async (sql) => {
    const emoji = await findActiveRealmEmoji(sql, realm.id, name);
    if (!emoji) throw notFound(`Emoji '${rawName}' does not exist`);
    if (!isAdmin(me.role) && emoji.author_id !== me.id) throw badRequest("Must be an organization administrator or emoji author");
    await deactivateRealmEmoji(sql, emoji.id);
  });
  await publishRealmEmoji(app);
}

/** An emoji image under /user_avatars/{realm_id}/emoji/images/ (public, like Zulip's avatars). */
export async function emojiFile(app: App, path: string): Promise<StoredFile> {
  const realm = realmOf(app);
  const m = /^(\d+)\/emoji\/images\/(?:still\/(\d+)\.png|([^/]+))$/.exec(path);
  if (!m || Number(m[1]) !== realm.id) throw notFound("File not found");
  const fileName = m[3] ?? `${m[2]}.png`;
  if (m[3] && !(await findRealmEmojiByFile(app.db, realm.id, m[3]))) throw notFound("File not found");
  const found = await uploadsOf(app).storage.existing(`avatars/${path}`);
  if (!found) throw notFound("File not found");
  const ext = fileName.split(".").pop()!;
  return { path: found.path, size: found.size, identity: `emoji/${path}`, fileName, contentType: `image/${ext === "gif" ? "gif" : ext === "webp" ? "webp" : "png"}` };
}
