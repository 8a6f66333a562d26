import { nowSecs, realmOf, type App } from "../app";
import { renderDescription } from "./channel-data";
import { unprintablePosition } from "../domain/channel-format";
import { isAdmin } from "../domain/roles";
import { adminRequired, badRequest } from "../errors";
import type { Sql } from "../store/db";
import {
  findChannelFolder,
  findChannelFolderByName,
  folderInUse,
  insertChannelFolder,
  listChannelFolders,
  updateChannelFolder,
  type ChannelFolderRow,
} from "../store/channel-folders";
import { listUsers, type UserRow } from "../store/users";

export const MAX_FOLDER_NAME_LENGTH = 60;
export const MAX_FOLDER_DESCRIPTION_LENGTH = 1024;

/** A channel folder as the API shows it. */
export const folderDict = (f: ChannelFolderRow) => ({
  id: f.id,
  name: f.name,
  description: f.description,
  rendered_description: f.rendered_description,
  order: f.order,
  creator_id: f.creator_id,
  date_created: Math.floor(f.date_created),
  is_archived: Boolean(f.is_archived),
});

async function everyone(app: App): Promise<number[]> {
  return (await listUsers(app.db, realmOf(app).id)).filter((u) => u.is_active).map((u) => u.id);
}

async function checkFolderName(sql: Sql, realmId: number, name: string): Promise<void> {
  if (name.trim() === "") throw badRequest("Channel folder name can't be empty.");
  const pos = unprintablePosition(name);
  if (pos !== null) throw badRequest(`Invalid character in channel folder name, at position ${pos}.`);
  if (await findChannelFolderByName(sql, realmId, name)) throw badRequest(`Channel folder '${name}' already exists`);
}

/** POST /channel_folders/create (administrators). */
export async function createChannelFolder(app: App, me: UserRow, name: string, description: string): Promise<number> {
  if (!isAdmin(me.role)) throw adminRequired();
  const realm = realmOf(app);
  await checkFolderName(app.db, realm.id, name);
  const rendered = await renderDescription(app, me, description);
  const id = await app.db.tx(async (sql) => {
    await checkFolderName(sql, realm.id, name);
    return insertChannelFolder(sql, {
      realm_id: realm.id,
      name,
      description,
      rendered_description: rendered,
      creator_id: me.id,
      date_created: nowSecs(app),
    });
  });
  const folder = (await findChannelFolder(app.db, id))!;
  app.events.publish({ type: "channel_folder", op: "add", channel_folder: folderDict(folder) }, await everyone(app));
  return id;
}

/** GET /channel_folders */
export async function listFolders(app: App, includeArchived: boolean) {
  return (await listChannelFolders(app.db, realmOf(app).id, includeArchived)).map(folderDict);
}

/** PATCH /channel_folders/{id}: name, description, archive state (administrators). */
export async function updateFolder(app: App, me: UserRow, id: number, input: { name?: string; description?: string; isArchived?: boolean }): Promise<void> {
  if (!isAdmin(me.role)) throw adminRequired();
  const realm = realmOf(app);
  const folder = await findChannelFolder(app.db, id);
  if (!folder || folder.realm_id !== realm.id) throw badRequest("Invalid channel folder ID");
  const data: Record<string, string | boolean> = {};
  const fields: Parameters<typeof updateChannelFolder>[2] = {};
  if (input.name !== undefined && input.name !== folder.name) {
    if (input.name.toLowerCase() !== folder.name.toLowerCase()) await checkFolderName(app.db, realm.id, input.name);
    else if (input.name.trim() === "") throw badRequest("Channel folder name can't be empty.");
    fields.name = data.name = input.name;
  }
  if (input.description !== undefined && input.description !== folder.description) {
    fields.description = data.description = input.description;
    fields.rendered_description = data.rendered_description = await renderDescription(app, me, input.description);
  }
  if (input.isArchived !== undefined && Boolean(folder.is_archived) !== input.isArchived) {
    if (input.isArchived && (await folderInUse(app.db, folder.id))) throw badRequest("You need to remove all the channels from this folder to archive it.");
    fields.is_archived = input.isArchived ? 1 : 0;
    data.is_archived = input.isArchived;
  }
  if (!Object.keys(fields).length) return;
  await app.db.tx((sql) => updateChannelFolder(sql, folder.id, fields));
  app.events.publish({ type: "channel_folder", op: "update", channel_folder_id: folder.id, data }, await everyone(app));
}

/** PATCH /channel_folders: a new order, naming every folder exactly once (administrators). */
export async function reorderFolders(app: App, me: UserRow, order: number[]): Promise<void> {
  if (!isAdmin(me.role)) throw adminRequired();
  const folders = await listChannelFolders(app.db, realmOf(app).id, true);
  const position = new Map(order.map((id, i) => [id, i]));
  if (folders.some((f) => !position.has(f.id)) || position.size !== order.length) throw badRequest("Invalid order mapping.");
  await app.db.tx(async (sql) => {
    for (const f of folders) await updateChannelFolder(sql, f.id, { order: position.get(f.id)! });
  });
  app.events.publish({ type: "channel_folder", op: "reorder", order }, await everyone(app));
}
