/**
 * Default channel groups (Zulip's zerver/actions/default_streams.py, an experimental feature): named
 * sets of channels an administrator offers to new users. Administrators only; every change sends the
 * whole list (default_stream_groups event) to every active member (guests neither see nor get them).
 */
import { realmOf, type App } from "../app";
import { isAdmin, isGuest } from "../domain/roles";
import { adminRequired, badRequest } from "../errors";
import {
  addGroupStream,
  deleteDefaultStreamGroup,
  findDefaultStreamGroup,
  findDefaultStreamGroupByName,
  groupStreamIds,
  insertDefaultStreamGroup,
  listDefaultStreamGroups,
  removeGroupStream,
  removeStreamFromGroups,
  updateDefaultStreamGroup,
} from "../store/default-stream-groups";
import type { Sql } from "../store/db";
import type { StreamRow } from "../store/streams";
import { listDefaultStreamIds } from "../store/streams";
import { listUsers, type UserRow } from "../store/users";
import { accessChannelByName } from "./channel-access";

export const MAX_GROUP_NAME_LENGTH = 60;
export const MAX_GROUP_DESCRIPTION_LENGTH = 1024;

/** The groups as the API shows them: by name, each with its channels' ids. */
export async function defaultStreamGroupList(app: App, sql: Sql = app.db) {
  return (await listDefaultStreamGroups(sql, realmOf(app).id)).map((g) => ({ id: g.id, name: g.name, description: g.description, streams: g.streams }));
}

/** `default_stream_groups` initial state: empty for guests, as in Zulip. */
export async function defaultStreamGroupsState(app: App, me: UserRow) {
  return { realm_default_stream_groups: isGuest(me.role) ? [] : await defaultStreamGroupList(app) };
}

async function publish(app: App): Promise<void> {
  const members = (await listUsers(app.db, realmOf(app).id)).filter((u) => u.is_active && !isGuest(u.role)).map((u) => u.id);
  app.events.publish({ type: "default_stream_groups", default_stream_groups: await defaultStreamGroupList(app) }, members);
}

function checkName(name: string): void {
  if (name.trim() === "") throw badRequest(`Invalid default channel group name '${name}'`);
  if (name.length > MAX_GROUP_NAME_LENGTH) throw badRequest(`Default channel group name too long (limit: ${MAX_GROUP_NAME_LENGTH} characters)`);
  if (name.includes("\0")) throw badRequest(`Default channel group name '${name}' contains NULL (0x00) characters.`);
}

async function channelsByName(app: App, me: UserRow, names: string[]): Promise<StreamRow[]> {
  const out: StreamRow[] = [];
  for (const name of names) out.push((await accessChannelByName(app, me, name)).stream);
  return out;
}

async function accessGroup(app: App, sql: Sql, id: number) {
  const group = await findDefaultStreamGroup(sql, realmOf(app).id, id);
  if (!group) throw badRequest(`Default channel group with id '${id}' does not exist.`);
  return group;
}

/** POST /default_stream_groups/create */
export async function createDefaultStreamGroup(app: App, me: UserRow, input: { name: string; description: string; streamNames: string[] }): Promise<void> {
  if (!isAdmin(me.role)) throw adminRequired();
  const realm = realmOf(app);
  const streams = await channelsByName(app, me, input.streamNames);
  const defaults = await listDefaultStreamIds(app.db, realm.id);
  const isDefault = streams.find((s) => defaults.includes(s.id));
  if (isDefault) throw badRequest(`'${isDefault.name}' is a default channel and cannot be added to '${input.name}'`);
  checkName(input.name);
  if (input.description.length > MAX_GROUP_DESCRIPTION_LENGTH) throw badRequest(`Default channel group description too long (limit: ${MAX_GROUP_DESCRIPTION_LENGTH} characters)`);
  await app.db.tx(async (sql) => {
    if (await findDefaultStreamGroupByName(sql, realm.id, input.name)) throw badRequest(`Default channel group '${input.name}' already exists`);
    const id = await insertDefaultStreamGroup(sql, realm.id, input.name, input.description);
    for (const s of streams) await addGroupStream(sql, id, s.id);
  });
  await publish(app);
}

/** PATCH /default_stream_groups/{group_id}: a new name and/or description. */
export async function updateDefaultStreamGroupInfo(app: App, me: UserRow, id: number, input: { name?: string; description?: string }): Promise<void> {
  if (!isAdmin(me.role)) throw adminRequired();
  if (!input.name && !input.description) throw badRequest('You must pass "new_description" or "new_group_name".');
  const realm = realmOf(app);
  await app.db.tx(async (sql) => {
    const group = await accessGroup(app, sql, id);
    if (input.name !== undefined) {
      if (group.name === input.name) throw badRequest(`This default channel group is already named '${input.name}'`);
      checkName(input.name);
      if (await findDefaultStreamGroupByName(sql, realm.id, input.name)) throw badRequest(`Default channel group '${input.name}' already exists`);
    }
    if (input.description !== undefined && input.description.length > MAX_GROUP_DESCRIPTION_LENGTH) {
      throw badRequest(`Default channel group description too long (limit: ${MAX_GROUP_DESCRIPTION_LENGTH} characters)`);
    }
    await updateDefaultStreamGroup(sql, id, { name: input.name, description: input.description });
  });
  await publish(app);
}

/** PATCH /default_stream_groups/{group_id}/streams: channels added or removed, all or none. */
export async function updateDefaultStreamGroupStreams(app: App, me: UserRow, id: number, op: string, streamNames: string[]): Promise<void> {
  if (!isAdmin(me.role)) throw adminRequired();
  const realm = realmOf(app);
  const group = await accessGroup(app, app.db, id);
  const streams = await channelsByName(app, me, streamNames);
  if (op !== "add" && op !== "remove") throw badRequest('Invalid value for "op". Specify one of "add" or "remove".');
  const defaults = await listDefaultStreamIds(app.db, realm.id);
  await app.db.tx(async (sql) => {
    const present = await groupStreamIds(sql, id);
    for (const s of streams) {
      if (op === "add") {
        if (defaults.includes(s.id)) throw badRequest(`'${s.name}' is a default channel and cannot be added to '${group.name}'`);
        if (present.includes(s.id)) throw badRequest(`Channel '${s.name}' is already present in default channel group '${group.name}'`);
        await addGroupStream(sql, id, s.id);
        present.push(s.id);
      } else {
        if (!present.includes(s.id)) throw badRequest(`Channel '${s.name}' is not present in default channel group '${group.name}'`);
        await removeGroupStream(sql, id, s.id);
      }
    }
  });
  await publish(app);
}

/** DELETE /default_stream_groups/{group_id} */
export async function removeDefaultStreamGroup(app: App, me: UserRow, id: number): Promise<void> {
  if (!isAdmin(me.role)) throw adminRequired();
  await app.db.tx(async (sql) => {
    await accessGroup(app, sql, id);
    await deleteDefaultStreamGroup(sql, id);
  });
  await publish(app);
}

/** An archived channel leaves every group (in the archiving transaction); returns whether any held it, to publish after commit. */
export const dropArchivedChannel = (sql: Sql, streamId: number) => removeStreamFromGroups(sql, streamId).then((n) => n > 0);
export const publishDefaultStreamGroups = publish;
