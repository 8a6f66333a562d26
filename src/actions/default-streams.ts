import { realmOf, type App } from "../app";
import { accessChannelById } from "./channel-access";
import { isAdmin } from "../domain/roles";
import { adminRequired, badRequest } from "../errors";
import { addDefaultStream, listDefaultStreamIds, removeDefaultStream } from "../store/streams";
import { listUsers, type UserRow } from "../store/users";

/** The default_streams event (all default channel ids) to every active user. */
export async function publishDefaultStreams(app: App): Promise<void> {
  const realm = realmOf(app);
  const ids = await listDefaultStreamIds(app.db, realm.id);
  const everyone = (await listUsers(app.db, realm.id)).filter((u) => u.is_active).map((u) => u.id);
  app.events.publish({ type: "default_streams", default_streams: ids }, everyone);
}

/** POST /default_streams: administrators make a public channel one that new users join. */
export async function makeDefaultStream(app: App, me: UserRow, streamId: number): Promise<void> {
  if (!isAdmin(me.role)) throw adminRequired();
  const { stream } = await accessChannelById(app, me, streamId);
  if (stream.invite_only) throw badRequest("Private channels cannot be made default.");
  await app.db.tx((sql) => addDefaultStream(sql, stream.realm_id, stream.id));
  await publishDefaultStreams(app);
}

/** DELETE /default_streams */
export async function unmakeDefaultStream(app: App, me: UserRow, streamId: number): Promise<void> {
  if (!isAdmin(me.role)) throw adminRequired();
  const { stream } = await accessChannelById(app, me, streamId, { requireContentAccess: false });
  await app.db.tx((sql) => removeDefaultStream(sql, stream.realm_id, stream.id));
  await publishDefaultStreams(app);
}
