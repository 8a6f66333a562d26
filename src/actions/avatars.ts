/**
 * Uploaded avatars (POST and DELETE /users/me/avatar), following Zulip's set_avatar_backend and
 * do_change_avatar_fields: a 100×100 and a 500×500 ("medium") square PNG under
 * /user_avatars/{realm_id}/{user_id}[-medium].png, `avatar_source` "U", `avatar_version` bumped so
 * the URL (?version=N) changes, and a realm_user update to everyone who can see the user.
 */
import { rm } from "node:fs/promises";
import { realmOf, type App } from "../app";
import { isAdmin } from "../domain/roles";
import { avatarUrl } from "../domain/user-format";
import { badRequest, notFound } from "../errors";
import { findUserById, updateUser, type UserRow } from "../store/users";
import type { StoredFile } from "../uploads/file-response";
import { AVATAR_SIZE, MEDIUM_AVATAR_SIZE, squareImage } from "../uploads/profile-images";
import { uploadsOf } from "../uploads/runtime";
import { converted, MAX_PROFILE_IMAGE_MIB, receiveImage } from "./image-upload";
import { SNIFF_BYTES, sniffContentType, THUMBNAIL_TYPES } from "../uploads/content-type";
import { usersWhoCanAccess } from "./user-access";
import { botAdministrators } from "./users";

const avatarPath = (u: Pick<UserRow, "realm_id" | "id">, medium: boolean) => `avatars/${u.realm_id}/${u.id}${medium ? "-medium" : ""}.png`;

/** Zulip's AVATAR_CHANGES_DISABLED_ERROR: the organization's avatar_changes_disabled binds all but administrators. */
function checkAvatarChanges(app: App, me: UserRow): void {
  if (realmOf(app).settings.avatar_changes_disabled && !isAdmin(me.role)) throw badRequest("Avatar changes are disabled in this organization.");
}

/** POST /users/me/avatar: the request's one image becomes the caller's avatar. Returns its URL. */
export async function setOwnAvatar(app: App, me: UserRow, request: Request): Promise<string> {
  checkAvatarChanges(app, me);
  const data = await receiveImage(app, request, "avatar");
  return avatarUrl(await storeAvatar(app, me, data), false)!;
}

/**
 * A bot's avatar sent with PATCH /bots/{bot_id} (Zulip's patch_bot_backend: one file, the caller
 * already allowed to change the bot). The framework has read the (size-capped) body.
 */
export async function setBotAvatar(app: App, bot: UserRow, files: File[]): Promise<void> {
  if (files.length > 1) throw badRequest("You may only upload one file at a time");
  const file = files[0]!;
  if (file.size > MAX_PROFILE_IMAGE_MIB * 1024 * 1024) throw badRequest(`Uploaded file is larger than the allowed limit of ${MAX_PROFILE_IMAGE_MIB} MiB`);
  const data = new Uint8Array(await file.arrayBuffer());
  if (!THUMBNAIL_TYPES.has(await sniffContentType(data.subarray(0, SNIFF_BYTES), file.name))) throw badRequest("Invalid image format");
  await storeAvatar(app, bot, data);
}

/** Both sizes written, then the new source and version stored and announced. */
async function storeAvatar(app: App, user: UserRow, data: Uint8Array): Promise<UserRow> {
  await converted(() => writeAvatarFiles(app, user, data));
  return changeAvatarSource(app, user.id, "U");
}

/**
 * The two square PNGs of an avatar, written where /user_avatars serves them (an import stores the
 * row's source and version itself). Throws on an image that cannot be decoded.
 */
export async function writeAvatarFiles(app: App, user: Pick<UserRow, "realm_id" | "id">, data: Uint8Array): Promise<void> {
  const [small, medium] = await Promise.all([squareImage(data, AVATAR_SIZE), squareImage(data, MEDIUM_AVATAR_SIZE)]);
  const { storage } = uploadsOf(app);
  await storage.writeAtomic(avatarPath(user, false), small);
  await storage.writeAtomic(avatarPath(user, true), medium);
}

/** DELETE /users/me/avatar: back to the default (Gravatar) avatar; the uploaded files go. Returns the URL. */
export async function deleteOwnAvatar(app: App, me: UserRow): Promise<string> {
  checkAvatarChanges(app, me);
  if (me.avatar_source !== "U") return avatarUrl(me, false)!;
  const user = await changeAvatarSource(app, me.id, "G");
  const { storage } = uploadsOf(app);
  for (const medium of [false, true]) {
    const path = storage.path(avatarPath(me, medium));
    if (path) await rm(path, { force: true });
  }
  return avatarUrl(user, false)!;
}

/** Sets avatar_source and bumps avatar_version, then tells whoever can see the user (and a bot's administrators). */
async function changeAvatarSource(app: App, userId: number, source: "U" | "G"): Promise<UserRow> {
  const user = await app.db.tx(async (sql) => {
    const row = (await findUserById(sql, userId))!;
    const changed = { avatar_source: source, avatar_version: row.avatar_version + 1 };
    await updateUser(sql, userId, changed);
    return { ...row, ...changed };
  });
  const person = {
    user_id: user.id,
    avatar_source: user.avatar_source,
    avatar_url: avatarUrl(user, false),
    avatar_url_medium: avatarUrl(user, false, true),
    avatar_version: user.avatar_version,
  };
  app.events.publish({ type: "realm_user", op: "update", person }, await usersWhoCanAccess(app, user.id));
  if (user.is_bot) app.events.publish({ type: "realm_bot", op: "update", bot: { user_id: user.id, avatar_url: person.avatar_url } }, await botAdministrators(app, user));
  return user;
}

/**
 * An image under /user_avatars/{realm_id}/ other than custom emoji: a user's uploaded avatar
 * (`{user_id}.png`, `{user_id}-medium.png`) or the organization's icon and logos (`realm/*.png`).
 * Public, like Zulip's avatars: message lists show them to anyone who may read the messages. A user's
 * only while it is their avatar (not after a deactivation that deleted their profile).
 */
export async function profileImageFile(app: App, path: string): Promise<StoredFile> {
  const m = /^(\d+)\/(?:(\d+)(-medium)?|realm\/(icon|logo|night_logo))\.png$/.exec(path);
  if (!m || Number(m[1]) !== realmOf(app).id) throw notFound("File not found");
  if (m[2] !== undefined && (await findUserById(app.db, Number(m[2])))?.avatar_source !== "U") throw notFound("File not found");
  const found = await uploadsOf(app).storage.existing(`avatars/${path}`);
  if (!found) throw notFound("File not found");
  // the same name holds each new version: the modification time tells them apart
  return { path: found.path, size: found.size, identity: `avatars/${path}@${found.mtimeMs}`, fileName: path.split("/").pop()!, contentType: "image/png" };
}
