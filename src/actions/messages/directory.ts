import { realmOf, type App } from "../../app";
import type { Sql } from "../../store/db";
import { listDirectoryUsers, listNamedGroups, readCacheVersions, type DirectoryUserRow } from "../../store/cache-versions";
import { listRealmEmoji, type RealmEmojiRow } from "../../store/realm-emoji";
import { listStreams, type StreamRow } from "../../store/streams";
import { listSubscriberIds } from "../../store/subscriptions";

/**
 * The hot paths' view of the organization, kept in memory: users, channels, subscribers, named
 * groups and custom emoji. Each part reloads when the version its table's triggers bump moved
 * (one small query per request instead of several), so writes made anywhere are seen at once.
 */
export interface DirectoryUser extends DirectoryUserRow {
  /** personal settings (users.settings), parsed */
  prefs: Record<string, unknown>;
}

export class Directory {
  users = new Map<number, DirectoryUser>();
  private usersByEmail = new Map<string, DirectoryUser>();
  private usersByName = new Map<string, DirectoryUser[]>();
  streams = new Map<number, StreamRow>();
  private streamsByName = new Map<string, StreamRow>();
  private subscribers = new Map<number, number[]>();
  groupsByName = new Map<string, { id: number; name: string; canMention: number | null }>();
  emojiByName = new Map<string, RealmEmojiRow>();
  emojiById = new Map<number, RealmEmojiRow>();
  versions: Record<string, number> = {};

  userByEmail(email: string) {
    return this.usersByEmail.get(email.trim().toLowerCase());
  }
  activeUsersByName(name: string): DirectoryUser[] {
    return (this.usersByName.get(name.toLowerCase()) ?? []).filter((u) => u.is_active);
  }
  streamByName(name: string) {
    return this.streamsByName.get(name.trim().toLowerCase());
  }

  /** Active subscribers (active users) of a channel; loaded on first use, kept until subscriptions change. */
  async subscriberIds(sql: Sql, streamId: number): Promise<number[]> {
    let ids = this.subscribers.get(streamId);
    if (!ids) this.subscribers.set(streamId, (ids = await listSubscriberIds(sql, streamId)));
    return ids;
  }

  setUsers(rows: DirectoryUserRow[]) {
    this.users.clear();
    this.usersByEmail.clear();
    this.usersByName.clear();
    for (const r of rows) {
      const u: DirectoryUser = { ...r, prefs: safeJson(r.settings) };
      this.users.set(u.id, u);
      this.usersByEmail.set(u.email.toLowerCase(), u);
      if (!this.usersByEmail.has(u.delivery_email.toLowerCase())) this.usersByEmail.set(u.delivery_email.toLowerCase(), u);
      const key = u.full_name.toLowerCase();
      const list = this.usersByName.get(key);
      if (list) list.push(u);
      else this.usersByName.set(key, [u]);
    }
  }

  setStreams(rows: StreamRow[]) {
    this.streams = new Map(rows.map((s) => [s.id, s]));
    this.streamsByName = new Map(rows.map((s) => [s.name.toLowerCase(), s]));
  }

  clearSubscribers() {
    this.subscribers.clear();
  }
}

function groupSetting(settings: string, name: string): number | null {
  const v = safeJson(settings)[name];
  return typeof v === "number" ? v : null;
}

function safeJson(s: string): Record<string, unknown> {
  try {
    return JSON.parse(s || "{}");
  } catch {
    return {};
  }
}

const directories = new WeakMap<App, Directory>();
const pending = new WeakMap<App, Promise<Directory>>();

/** The up-to-date directory (one version query; reloads only the parts whose tables changed). */
export async function loadDirectory(app: App): Promise<Directory> {
  const inFlight = pending.get(app);
  if (inFlight) return inFlight;
  const p = refresh(app).finally(() => pending.delete(app));
  pending.set(app, p);
  return p;
}

async function refresh(app: App): Promise<Directory> {
  const realm = realmOf(app);
  let dir = directories.get(app);
  if (!dir) directories.set(app, (dir = new Directory()));
  const v = await currentVersions(app, dir);
  const moved = (name: string) => dir!.versions[name] !== v[name];
  const loads: Promise<void>[] = [];
  if (moved("users")) loads.push(listDirectoryUsers(app.db, realm.id).then((rows) => dir!.setUsers(rows)));
  if (moved("streams")) loads.push(listStreams(app.db, realm.id).then((rows) => dir!.setStreams(rows)));
  if (moved("subscriptions") || moved("users")) dir.clearSubscribers();
  if (moved("user_groups")) loads.push(listNamedGroups(app.db, realm.id).then((rows) => void (dir!.groupsByName = new Map(rows.map((g) => [g.name, { id: g.id, name: g.name, canMention: groupSetting(g.settings, "can_mention_group") }])))));
  if (moved("realm_emoji")) {
    loads.push(
      listRealmEmoji(app.db, realm.id).then((rows) => {
        dir!.emojiById = new Map(rows.map((e) => [e.id, e]));
        dir!.emojiByName = new Map(rows.filter((e) => !e.deactivated).map((e) => [e.name, e]));
      }),
    );
  }
  await Promise.all(loads);
  dir.versions = v;
  return dir;
}

const CACHED_TABLES = ["users", "streams", "subscriptions", "user_groups", "realm_emoji"] as const;
let tick = 0;
let tickArmed = false;
/** A counter that moves once per turn of the event loop. */
function currentTick(): number {
  if (!tickArmed) {
    tickArmed = true;
    setImmediate(() => {
      tick++;
      tickArmed = false;
    });
  }
  return tick;
}
const checkedAt = new WeakMap<Directory, number>();
/** The database's data_version (moved only by other connections) when the directory's versions were last read. */
const readAt = new WeakMap<Directory, number | null>();

/**
 * The cached tables' versions, read at most once per event-loop turn: a write made in this process
 * to one of them makes the store's memo reload at once; a write from elsewhere (another process on
 * the same database) is seen on the next turn. When no other connection has committed since the last
 * read (the database's data_version has not moved), this process's writes are all the memo's to see:
 * nothing is read.
 */
async function currentVersions(app: App, dir: Directory): Promise<Record<string, number>> {
  const read = async () => {
    // taken before the read: a commit between the two moves it again, and the next turn reads
    const at = app.db.dataVersion();
    const v = await readCacheVersions(app.db);
    readAt.set(dir, at);
    return v;
  };
  let loaded = false;
  const v = await app.db.memo(CACHED_TABLES, "message-directory-versions", async () => {
    loaded = true;
    return read();
  });
  const now = currentTick();
  if (loaded || checkedAt.get(dir) !== now) {
    checkedAt.set(dir, now);
    if (loaded) return v;
    const at = readAt.get(dir);
    if (at != null && at === app.db.dataVersion()) return dir.versions;
    return read();
  }
  return dir.versions;
}

/** Where a custom emoji's image is served (Zulip's realm emoji path). */
export const realmEmojiUrl = (e: Pick<RealmEmojiRow, "realm_id" | "file_name">) => `/user_avatars/${e.realm_id}/emoji/images/${e.file_name}`;
