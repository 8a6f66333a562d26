import type { Config } from "./config/schema";
import { openDb, type Db } from "./store/db";
import { migrate } from "./store/migrate";
import { EventHub } from "./events/hub";
import { GroupGraph } from "./domain/group-graph";
import { emptyTopicNameOf } from "./domain/topic";
import { findRealm, type RealmRow } from "./store/realm";
import { listMemberships, listSubgroupEdges, listSystemGroups } from "./store/groups";
import { REALM_PROPERTY_DEFAULTS, type RealmSettings } from "./domain/realm-settings";
import { createLog, type Log } from "./lib/log";
import type { SystemGroupName } from "./domain/roles";

export interface Clock {
  /** milliseconds since the epoch */
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

export interface Realm extends Omit<RealmRow, "settings"> {
  settings: RealmSettings;
}

/** Everything an action needs: the composition root. */
export interface App {
  config: Config;
  db: Db;
  events: EventHub;
  clock: Clock;
  log: Log;
  /** The organization (one per data dir); null until it is created. */
  realm: Realm | null;
  /** Group membership graph, rebuilt after group or role changes (see reloadGroups). */
  groups: GroupGraph;
  systemGroups: Map<SystemGroupName, number>;
  /** Long-poll heartbeat interval; tests shorten it. */
  heartbeatMs: () => number;
  /** Hooks run by closeApp (upload workers, timers). */
  onClose: (() => void | Promise<void>)[];
  /** Set by a serving process (serve.ts): switching the running server to another organization. */
  host?: AppHost;
}

/** One switch of a running server to an imported organization (see AppHost). */
export interface OrganizationSwitch {
  /** Runs on the old app once no request is in flight; throwing cancels the switch. */
  check(old: App): Promise<void>;
  /** Moves the files (the database is closed). */
  swap(): void;
  /** Puts the old files back (the new database failed to open). */
  undo(): void;
}

export interface AppHost {
  /** The app serving now (a switch replaces it). */
  current(): App;
  /**
   * Holds new requests (503), lets in-flight ones finish, runs `check`, closes the app, swaps the
   * files and serves a new App on them: every in-memory cache and event queue starts afresh.
   */
  switchOrganization(s: OrganizationSwitch): Promise<App>;
}

export interface OpenOptions {
  clock?: Clock;
  quiet?: boolean;
  heartbeatMs?: () => number;
  /** Tests: open a file database through @libsql/client, the code path a remote libSQL server takes. */
  viaClient?: boolean;
}

export async function openApp(config: Config, opts: OpenOptions = {}): Promise<App> {
  const db = await openDb(config.storage.database, config.storage.auth_token, { viaClient: opts.viaClient, cacheMib: config.memory.sqlite_cache_mib, statementCacheKib: config.memory.statement_cache_kib });
  try {
    await migrate(db);
  } catch (e) {
    db.close();
    throw e;
  }
  const clock = opts.clock ?? systemClock;
  const heartbeatMs = opts.heartbeatMs ?? (() => 45_000 + Math.floor(Math.random() * 10_000));
  const app: App = {
    config,
    db,
    clock,
    log: createLog({ quiet: opts.quiet, level: config.log.level, format: config.log.format }),
    events: new EventHub(() => clock.now(), {
      idleSecs: config.retention.event_queue_idle_minutes * 60,
      heartbeatMs,
      emptyTopicName: () => emptyTopicNameOf(app.realm?.settings),
    }),
    realm: null,
    groups: new GroupGraph([], []),
    systemGroups: new Map(),
    heartbeatMs,
    onClose: [],
  };
  await reloadRealm(app);
  await reloadGroups(app);
  return app;
}

export async function closeApp(app: App): Promise<void> {
  app.events.releaseAll();
  for (const hook of app.onClose.splice(0)) await hook();
  app.db.close();
  app.log.close();
}

/** Re-reads the organization row into app.realm (after PATCH /realm and at start). */
export async function reloadRealm(app: App): Promise<void> {
  const row = await findRealm(app.db);
  if (!row) return;
  const settings = { ...REALM_PROPERTY_DEFAULTS, ...JSON.parse(row.settings) } as RealmSettings;
  app.realm = { ...row, settings };
}

/** Rebuilds the group graph (after any membership, subgroup or role change commits). */
export async function reloadGroups(app: App): Promise<void> {
  const [members, edges] = await Promise.all([listMemberships(app.db), listSubgroupEdges(app.db)]);
  app.groups = new GroupGraph(members, edges);
  if (app.realm) {
    app.systemGroups = new Map((await listSystemGroups(app.db, app.realm.id)).map((g) => [g.name as SystemGroupName, g.id]));
  }
}

/** The organization, which exists once the server has been initialised. */
export function realmOf(app: App): Realm {
  if (!app.realm) throw new Error("organization not initialised");
  return app.realm;
}

/** Seconds since the epoch, from the app's clock. */
export const nowSecs = (app: App) => app.clock.now() / 1000;
