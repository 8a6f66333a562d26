#!/usr/bin/env bun
import { parseArgs } from "node:util";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig, portFrom, type Overrides } from "./config/load";
import { closeApp, openApp, type App } from "./app";
import { createOrganization, createStarterChannel } from "./actions/organization";
import { createUser } from "./actions/users";
import { roleByName, ROLE } from "./domain/roles";
import { PARLEY_VERSION, ZULIP_FEATURE_LEVEL, ZULIP_VERSION } from "./domain/version";
import { SchemaTooNewError } from "./store/migrate";
import { ZulipError } from "./errors";
import { serve } from "./serve";
import { desktop, systemDesktop } from "./desktop";
import { writeZuliprc } from "./first-run";
import { openDb, type Db } from "./store/db";
import { createLoginLinksForEveryone, LOGIN_LINK_SECONDS } from "./actions/login-links";
import { sendTestEmail } from "./notify/email-outbox";
import { isValidEmail } from "./domain/validate";
import { startAgainWithJscOptions } from "./lib/jsc-options";

const HELP = `parley ${PARLEY_VERSION}: a team chat server that speaks the Zulip API

Usage:
  parley             [--no-browser] [--config FILE] [--data-dir DIR] [--host H] [--port N]
                     desktop mode (a double-click): serves, keeping its data in parley-data beside
                     the executable when it may write there, and opens the browser on a desktop
  parley serve       [--config FILE] [--data-dir DIR] [--host H] [--port N]
  parley init        [--config FILE] [--data-dir DIR] --org-name NAME --email EMAIL --full-name NAME [--password PW] [--zuliprc FILE]
  parley create-user [--config FILE] [--data-dir DIR] --email EMAIL --full-name NAME [--password PW]
                     [--role owner|administrator|moderator|member|guest] [--can-create-users] [--zuliprc FILE]
  parley backup      [--config FILE] [--data-dir DIR] --to FILE
                     one archive (tar; gzipped when FILE ends in .tar.gz or .tgz) of the database, the
                     uploads and a manifest with checksums, written while Parley serves
  parley restore     FILE [--data-dir DIR]
                     restores an archive into an empty or new data dir, after checking every checksum
  parley copy-db     [--config FILE] [--data-dir DIR] --to URL [--auth-token TOKEN]
                     copies the embedded database into an empty libSQL database (libsql://, http://, file:)
  parley import slack EXPORT.zip [--config FILE] [--data-dir DIR] [--token TOKEN] [--org-name NAME] [--print-login-links]
                     a Slack export (its "Export data" zip) into a new organization in an empty or new data
                     dir; with --token (a Slack token) its files are downloaded too
  parley send-test-email ADDRESS [--config FILE] [--data-dir DIR]
                     sends one email now through [email] smtp_url (or, without it, to DATA_DIR/emails.log)
  parley import zulip EXPORT.tar.gz [--config FILE] [--data-dir DIR] [--print-login-links]
                     a Zulip organization export (Zulip Cloud's, manage.py export's or parley export's)
                     into a new organization in an empty or new data dir
  parley export      [--config FILE] [--data-dir DIR] OUT.tar.gz
                     the organization in Zulip's export format (for manage.py import, or import zulip),
                     written while Parley serves
  parley --help | --version

Defaults: data dir ./parley-data, host 127.0.0.1, port 9991. Flags beat PARLEY_DATA_DIR, PARLEY_HOST,
PARLEY_PORT and PARLEY_CONFIG, which beat the TOML file, which beats the defaults.
Exit codes: 0 ok, 1 runtime failure, 2 bad usage or bad config.`;

class UsageError extends Error {}

const COMMON = {
  config: { type: "string" },
  "data-dir": { type: "string" },
  help: { type: "boolean" },
} as const;

const SERVE = { ...COMMON, host: { type: "string" }, port: { type: "string" } } as const;

const COMMANDS = {
  serve: SERVE,
  desktop: { ...SERVE, "no-browser": { type: "boolean" } },
  init: { ...COMMON, "org-name": { type: "string" }, email: { type: "string" }, "full-name": { type: "string" }, password: { type: "string" }, zuliprc: { type: "string" } },
  "create-user": { ...COMMON, email: { type: "string" }, "full-name": { type: "string" }, password: { type: "string" }, role: { type: "string" }, "can-create-users": { type: "boolean" }, zuliprc: { type: "string" } },
  backup: { ...COMMON, to: { type: "string" } },
  restore: { ...COMMON },
  "copy-db": { ...COMMON, to: { type: "string" }, "auth-token": { type: "string" } },
  import: { ...COMMON, token: { type: "string" }, "org-name": { type: "string" }, "print-login-links": { type: "boolean" } },
  "send-test-email": { ...COMMON },
  export: { ...COMMON },
} as const;

export async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || (argv[0]!.startsWith("--") && !["--help", "--version"].includes(argv[0]!))) argv = ["desktop", ...argv];
  const [command, ...rest] = argv as [string, ...string[]];
  if (command === "--help" || command === "-h" || command === "help") {
    console.log(HELP);
    return 0;
  }
  if (command === "--version" || command === "-v") {
    console.log(`parley ${PARLEY_VERSION} (Zulip ${ZULIP_VERSION} API, feature level ${ZULIP_FEATURE_LEVEL})`);
    return 0;
  }
  try {
    if (!(command in COMMANDS)) throw new UsageError(`unknown command '${command}'`);
    const options = COMMANDS[command as keyof typeof COMMANDS];
    let values: Record<string, string | boolean | undefined>;
    let positionals: string[] = [];
    try {
      const parsed = parseArgs({ args: rest, options, strict: true, allowPositionals: ["restore", "import", "export", "send-test-email"].includes(command) });
      values = parsed.values as typeof values;
      positionals = parsed.positionals;
    } catch (e) {
      throw new UsageError((e as Error).message.replace(/^.*?: /, "").split(". ")[0]!);
    }
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const overrides: Overrides = {
      config: values.config as string | undefined,
      dataDir: values["data-dir"] as string | undefined,
      host: values.host as string | undefined,
      port: values.port !== undefined ? portFrom(values.port as string, "--port") : undefined,
    };
    const config = loadConfig(overrides);
    // before anything opens the data dir: a server's JavaScriptCore options take a start of their own
    if (command === "serve" || command === "desktop") startAgainWithJscOptions(config.memory);
    switch (command) {
      case "desktop":
        return await desktop(overrides, systemDesktop(Boolean(values["no-browser"])));
      case "serve":
        return await serve(config);
      case "init":
        return await init(config, values);
      case "create-user":
        return await addUser(config, values);
      case "backup":
        return await backup(config, values);
      case "restore":
        return await restore(config, restoreFile(positionals));
      case "copy-db":
        return await copyDb(config, values);
      case "import":
        if (positionals[0] === "zulip") return await importZulipCommand(config, positionals.slice(1), Boolean(values["print-login-links"]));
        return await importCommand(config, positionals, values);
      case "send-test-email":
        return await testEmail(config, positionals);
      case "export":
        return await exportCommand(config, positionals);
    }
    return 2;
  } catch (e) {
    if (e instanceof UsageError || e instanceof ConfigError) {
      console.error(`parley: ${e.message}`);
      if (e instanceof UsageError) console.error("Run 'parley --help' for usage.");
      return 2;
    }
    if (e instanceof SchemaTooNewError || e instanceof ZulipError) {
      console.error(`parley: ${e.message}`);
      return 1;
    }
    console.error(`parley: ${(e as Error)?.message ?? e}`);
    return 1;
  }
}

function required(values: Record<string, unknown>, ...names: string[]) {
  for (const n of names) if (typeof values[n] !== "string" || values[n] === "") throw new UsageError(`--${n} is required`);
}

async function withApp<T>(config: Parameters<typeof openApp>[0], fn: (app: App) => Promise<T>): Promise<T> {
  const app = await openApp(config, { quiet: true });
  try {
    return await fn(app);
  } finally {
    await closeApp(app);
  }
}

async function init(config: Parameters<typeof openApp>[0], values: Record<string, any>) {
  required(values, "org-name", "email", "full-name");
  return withApp(config, async (app) => {
    if (app.realm) {
      console.error(`parley: ${config.data_dir} is already initialised (organization '${app.realm.name}'); nothing was changed`);
      return 1;
    }
    const user = await createOrganization(app, {
      name: values["org-name"],
      ownerEmail: values.email,
      ownerFullName: values["full-name"],
      ownerPassword: values.password ?? null,
    });
    await createStarterChannel(app, user.userId);
    report(app, user, values.zuliprc);
    return 0;
  });
}

async function addUser(config: Parameters<typeof openApp>[0], values: Record<string, any>) {
  required(values, "email", "full-name");
  const role = values.role === undefined ? ROLE.member : roleByName(values.role);
  if (role === undefined) throw new UsageError(`--role must be one of owner, administrator, moderator, member, guest`);
  return withApp(config, async (app) => {
    if (!app.realm) {
      console.error(`parley: ${config.data_dir} has no organization yet; run 'parley init' first`);
      return 1;
    }
    const user = await createUser(app, null, {
      email: values.email,
      fullName: values["full-name"],
      password: values.password ?? null,
      role,
      canCreateUsers: Boolean(values["can-create-users"]),
    });
    report(app, user, values.zuliprc);
    return 0;
  });
}

/** send-test-email ADDRESS: prints what happened as one JSON object; exit 1 when it was not sent. */
async function testEmail(config: Parameters<typeof openApp>[0], positionals: string[]) {
  if (positionals.length !== 1 || !isValidEmail(positionals[0]!)) throw new UsageError("send-test-email needs one email ADDRESS");
  const result = await withApp(config, (app) => sendTestEmail(app, positionals[0]!));
  (result.ok ? console.log : console.error)(JSON.stringify({ sent: result.ok, to: positionals[0], via: result.via, detail: result.detail }));
  return result.ok ? 0 : 1;
}

/** backup: reads the data dir without opening the app (no migration, no lock), so it runs beside a live server. */
async function backup(config: Parameters<typeof openApp>[0], values: Record<string, any>) {
  required(values, "to");
  if (existsSync(values.to)) throw new UsageError(`--to ${values.to} already exists`);
  // the commands' own modules load with the command: `parley serve` starts without them
  const { BackupSourceError, writeBackup } = await import("./backup/create");
  try {
    const { manifest, bytes } = await writeBackup(config, values.to);
    console.log(JSON.stringify({ backup: values.to, bytes, schema_version: manifest.schema_version, counts: manifest.counts }));
    return 0;
  } catch (e) {
    if (e instanceof BackupSourceError) throw new UsageError(e.message);
    throw e;
  }
}

function restoreFile(positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError(positionals.length ? `restore takes one archive, got ${positionals.length}` : "restore needs the archive: parley restore FILE --data-dir DIR");
  return positionals[0]!;
}

/** restore: into an empty or new data dir; refuses (exit 1, nothing written) a damaged archive. */
async function restore(config: Parameters<typeof openApp>[0], file: string) {
  const { restoreBackup, RestoreError } = await import("./backup/restore");
  try {
    const manifest = await restoreBackup(file, config.data_dir);
    console.log(JSON.stringify({ restored: config.data_dir, created_at: manifest.created_at, schema_version: manifest.schema_version, counts: manifest.counts }));
    if (!config.storage.database.endsWith(join(config.data_dir, "parley.db")) || config.storage.uploads_dir !== join(config.data_dir, "uploads")) {
      console.error(`parley: note: the archive was restored as a standard data dir (parley.db and uploads/ in ${config.data_dir}); this configuration keeps its database or uploads elsewhere`);
    }
    return 0;
  } catch (e) {
    if (e instanceof RestoreError) {
      console.error(`parley: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

/**
 * copy-db: moving to a libSQL server. The copy is taken from a snapshot (like backup), so Parley may
 * keep serving meanwhile; writes made after the snapshot are not in the copy, so stop it first for
 * the final copy. One JSON object on stdout; a line per table on stderr.
 */
async function copyDb(config: Parameters<typeof openApp>[0], values: Record<string, any>) {
  required(values, "to");
  if (!config.storage.database.startsWith("file:")) throw new UsageError("copy-db copies the embedded database; this configuration already uses a libSQL server");
  const { snapshotDatabase } = await import("./store/snapshot");
  const { copyDatabase, CopyTargetNotEmptyError } = await import("./store/copy");
  const snapshot = join(config.data_dir, `copy-snapshot-${process.pid}.db`);
  rmSync(snapshot, { force: true });
  try {
    await withApp(config, (app) => snapshotDatabase({ url: config.storage.database, db: app.db }, snapshot));
    const source = await openDb(`file:${snapshot}`);
    let target: Db | null = null;
    try {
      target = await openDb(values.to, values["auth-token"]);
      const tables = await copyDatabase(source, target, { onProgress: (p) => console.error(`${p.table}: ${p.rows} rows`) });
      console.log(JSON.stringify({ copied_to: values.to, tables: tables.length, rows: tables.reduce((n, t) => n + t.rows, 0) }));
      console.error(`Now set [storage] database = "${values.to}" (and auth_token) in the config file. Uploads stay in ${join(config.data_dir, "uploads")}.`);
      return 0;
    } catch (e) {
      if (e instanceof CopyTargetNotEmptyError) throw new UsageError(e.message);
      throw e;
    } finally {
      target?.close();
      source.close();
    }
  } finally {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(snapshot + suffix, { force: true });
  }
}

/** import slack: refusals and failures are one line on stderr (exit 1), never a stack trace. */
async function importCommand(config: Parameters<typeof openApp>[0], positionals: string[], values: Record<string, any>) {
  const [source, file, ...extra] = positionals;
  if (source !== "slack") throw new UsageError(source ? `unknown import source '${source}' (known: slack)` : "import needs a source: parley import slack EXPORT.zip --data-dir DIR");
  if (!file || extra.length) throw new UsageError("import slack takes one export zip: parley import slack EXPORT.zip --data-dir DIR");
  if (!existsSync(file)) throw new UsageError(`${file} does not exist`);
  const { importSlack } = await import("./import/slack/import");
  const { ImportError } = await import("./import/common/problems");
  try {
    const result = await importSlack(config, { zip: file, token: values.token, orgName: values["org-name"] });
    for (const line of result.summary) console.log(line);
    console.log(`The organization is in ${result.dataDir}; the owner's API key is in ${join(result.dataDir, "zuliprc")}.`);
    if (values["print-login-links"]) {
      const links = await withApp(config, (app) => createLoginLinksForEveryone(app));
      console.log(`One-time login links (each signs its person in once, within ${LOGIN_LINK_SECONDS / 86400} days):`);
      for (const l of links) console.log(`  ${l.email}  ${l.url}`);
    }
    return 0;
  } catch (e) {
    if (e instanceof ImportError) {
      console.error(`parley: import failed: ${e.message}`);
      return 1;
    }
    console.error(`parley: import failed, nothing was written: ${(e as Error)?.message ?? e}`);
    return 1;
  }
}

/** import zulip: like import slack, a summary or one line saying why nothing was written. */
async function importZulipCommand(config: Parameters<typeof openApp>[0], positionals: string[], loginLinks: boolean) {
  if (positionals.length !== 1) throw new UsageError("import zulip takes one export: parley import zulip EXPORT.tar.gz --data-dir DIR");
  const file = positionals[0]!;
  if (!existsSync(file)) throw new UsageError(`${file} does not exist`);
  const { importZulip } = await import("./import/zulip/import");
  const { ImportError } = await import("./import/common/problems");
  try {
    const result = await importZulip(config, { archive: file });
    for (const line of result.summary) console.log(line);
    console.log(`The organization is in ${result.dataDir}; the owner's API key is in ${join(result.dataDir, "zuliprc")}.`);
    if (loginLinks) {
      const links = await withApp(config, (app) => createLoginLinksForEveryone(app));
      console.log(`One-time login links (each signs its person in once, within ${LOGIN_LINK_SECONDS / 86400} days):`);
      for (const l of links) console.log(`  ${l.email}  ${l.url}`);
    }
    return 0;
  } catch (e) {
    if (e instanceof ImportError) console.error(`parley: import failed: ${e.message}`);
    else console.error(`parley: import failed, nothing was written: ${(e as Error)?.message ?? e}`);
    return 1;
  }
}

/** export: reads a snapshot (like backup), so it runs beside a live server; one JSON line on stdout. */
async function exportCommand(config: Parameters<typeof openApp>[0], positionals: string[]) {
  if (positionals.length !== 1) throw new UsageError("export takes the archive to write: parley export --data-dir DIR OUT.tar.gz");
  const { ExportError, writeZulipExport } = await import("./export/zulip");
  try {
    const result = await writeZulipExport(config, positionals[0]!);
    console.log(JSON.stringify({ export: positionals[0], bytes: result.bytes, counts: result.counts }));
    return 0;
  } catch (e) {
    if (e instanceof ExportError) {
      console.error(`parley: export failed: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

/** init/create-user: one JSON object on stdout, and the zuliprc when asked. */
function report(app: App, user: { userId: number; email: string; apiKey: string }, zuliprc?: string) {
  const site = app.config.server.external_url;
  if (zuliprc) writeZuliprc(zuliprc, user.email, user.apiKey, site);
  console.log(JSON.stringify({ user_id: user.userId, email: user.email, api_key: user.apiKey, site }));
}

if (import.meta.main) {
  const code = await main(process.argv.slice(2));
  if (code !== -1) process.exit(code);
}
