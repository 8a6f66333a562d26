/**
 * `parley export`: the organization in Zulip's export format (what `manage.py import` reads, and
 * Parley's `import zulip`): realm.json, messages-000001.json..., attachment.json and the uploads,
 * custom emoji and avatars folders with their records.json, in one .tar.gz under one top folder.
 * It reads a consistent snapshot of the database (as `parley backup` does), so it runs while Parley
 * serves, and writes under a temporary name renamed into place when complete.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Config } from "../config/schema";
import { openDb, type Db } from "../store/db";
import { localDatabasePath, snapshotDatabase } from "../store/snapshot";
import { EXPORTED_TABLES, listMessagesAfter, listTable } from "../store/zulip";
import { TarWriter } from "../lib/tar";
import { zulipFlagsMask } from "../domain/zulip-export";
import { groupTables, huddleRow, messageRow, realmRow, realmTables, streamRow, subscriptionRows, userRow, type Row, type Tables } from "./zulip-tables";

export class ExportError extends Error {}

/** Messages per messages-NNNNNN.json (Zulip's export writes 1,000 to a file as well). */
export const MESSAGES_PER_FILE = 1000;
export const EXPORT_ROOT = "zulip-export-parley";

export interface ExportResult {
  bytes: number;
  counts: { people: number; channels: number; messages: number; reactions: number; files: number; emoji: number };
}

export async function writeZulipExport(config: Config, to: string, opts: { db?: Db; messagesPerFile?: number } = {}): Promise<ExportResult> {
  if (!/\.(tar\.gz|tgz)$/i.test(to)) throw new ExportError(`${to}: the export is a .tar.gz (Zulip's format)`);
  if (existsSync(to)) throw new ExportError(`${to} already exists`);
  const dbPath = localDatabasePath(config.storage.database);
  if (dbPath && !existsSync(dbPath)) throw new ExportError(`there is no database at ${dbPath}: nothing to export`);
  const tag = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const snapshot = join(dirname(to), `.${basename(to)}.snapshot-${tag}.db`);
  const partial = `${to}.partial-${tag}`;
  let writer: TarWriter | null = null;
  let db: Db | null = null;
  try {
    await snapshotDatabase({ url: config.storage.database, authToken: config.storage.auth_token, db: opts.db }, snapshot);
    db = await openDb(`file:${snapshot}`);
    const t: Tables = {};
    for (const name of EXPORTED_TABLES) t[name] = await listTable(db, name);
    if (!t.realm!.length) throw new ExportError("this data dir has no organization yet: nothing to export");
    writer = new TarWriter(partial, { gzip: true });
    const put = (name: string, value: unknown) => writer!.addBuffer(`${EXPORT_ROOT}/${name}`, Buffer.from(JSON.stringify(value)));

    // messages first: their sending clients go into realm.json's zerver_client
    const clients = new Map<string, number>();
    let after = 0;
    let fileNo = 0;
    let messageCount = 0;
    let userMessageId = 0;
    for (;;) {
      const { messages, userMessages } = await listMessagesAfter(db, after, opts.messagesPerFile ?? MESSAGES_PER_FILE);
      if (!messages.length) break;
      const rows = messages.map((m) => {
        let client = clients.get(m.client);
        if (client === undefined) clients.set(m.client, (client = clients.size + 1));
        return messageRow(m, client);
      });
      const direct = new Set(messages.filter((m) => m.stream_id === null).map((m) => m.id as number));
      const ums = userMessages.map((u) => ({ id: ++userMessageId, user_profile: u.user_id, message: u.message_id, flags_mask: zulipFlagsMask(u.flags, direct.has(u.message_id)) }));
      await put(`messages-${String(++fileNo).padStart(6, "0")}.json`, { zerver_message: rows, zerver_usermessage: ums });
      messageCount += messages.length;
      after = messages[messages.length - 1]!.id;
    }

    const streamRecipient = new Map(t.streams!.map((x) => [x.id as number, x.recipient_id as number]));
    const realmRows = realmRow(t.realm![0]!);
    const realm: Row = {
      zerver_realm: [realmRows.row],
      // Parley's settings Zulip's Realm has no field for (Zulip's importer reads only the tables it knows)
      parley_realm_settings: realmRows.parley,
      zerver_client: [...clients].map(([name, id]) => ({ id, name })),
      zerver_userprofile: t.users!.map(userRow),
      zerver_userprofile_mirrordummy: [],
      zerver_userprofile_crossrealm: [],
      zerver_stream: t.streams!.map(streamRow),
      zerver_recipient: t.recipients!.map((r) => ({ id: r.id, type: r.type, type_id: r.type_id })),
      zerver_huddle: t.direct_message_groups!.map(huddleRow),
      zerver_subscription: subscriptionRows(t),
      ...groupTables(t),
      ...realmTables(t),
      // tables Parley has no rows for, present because Zulip's importer walks them
      zerver_realmdomain: [],
      zerver_realmplayground: [],
      zerver_realmauthenticationmethod: [],
      zerver_realmauditlog: [],
      zerver_userpresence: [],
      zerver_useractivity: [],
      zerver_useractivityinterval: [],
      zerver_alertword: t.alert_words!.map((a, i) => ({ id: i + 1, user_profile: a.user_id, realm: t.realm![0]!.id, word: a.word })),
      zerver_muteduser: t.muted_users!.map((m, i) => ({ id: i + 1, user_profile: m.user_id, muted_user: m.muted_user_id, date_muted: m.date_muted })),
      zerver_usertopic: t.user_topics!.map((u, i) => ({
        id: i + 1, user_profile: u.user_id, stream: u.stream_id, recipient: streamRecipient.get(u.stream_id) ?? null,
        topic_name: u.topic, last_updated: u.last_updated, visibility_policy: u.visibility_policy,
      })),
      zerver_userstatus: [],
      zerver_service: [],
      zerver_botstoragedata: [],
      zerver_botconfigdata: [],
      zerver_scheduledmessage: [],
    };
    await put("realm.json", realm);
    // Zulip's export has its usage statistics beside realm.json; Parley keeps none
    await put("analytics.json", { analytics_realmcount: [], analytics_usercount: [], analytics_streamcount: [], analytics_installationcount: [] });

    // attachments and their files
    const links = new Map<number, number[]>();
    for (const l of t.attachment_messages!) links.set(l.attachment_id, [...(links.get(l.attachment_id) ?? []), l.message_id]);
    const attachments = t.attachments!.map((a) => ({
      id: a.id, owner: a.owner_id, realm: a.realm_id, file_name: a.file_name, path_id: a.path_id, size: a.size, create_time: a.create_time,
      is_realm_public: Boolean(a.is_realm_public), is_web_public: Boolean(a.is_web_public), content_type: a.content_type,
      messages: (links.get(a.id) ?? []).sort((x, y) => x - y), scheduled_messages: [],
    }));
    await put("attachment.json", { zerver_attachment: attachments });
    const uploadRecords: Row[] = [];
    for (const a of t.attachments!) {
      const sum = await writer.addFile(`${EXPORT_ROOT}/uploads/${a.path_id}`, join(config.storage.uploads_dir, a.path_id));
      if (!sum) continue; // deleted after the snapshot
      uploadRecords.push({ path: a.path_id, s3_path: a.path_id, realm_id: a.realm_id, user_profile_id: a.owner_id, size: sum.size, last_modified: a.create_time, content_type: a.content_type });
    }
    await put("uploads/records.json", uploadRecords);
    const emojiRecords: Row[] = [];
    for (const e of t.realm_emoji!) {
      const rel = `${e.realm_id}/emoji/images/${e.file_name}`;
      const sum = await writer.addFile(`${EXPORT_ROOT}/emoji/${rel}`, join(config.storage.uploads_dir, "avatars", rel));
      if (!sum) continue;
      emojiRecords.push({ path: rel, s3_path: rel, file_name: e.file_name, realm_id: e.realm_id, user_profile_id: e.author_id, name: e.name, id: e.id, deactivated: Boolean(e.deactivated) });
    }
    await put("emoji/records.json", emojiRecords);
    // Parley shows generated avatars only (no uploaded ones), so there are no avatar files
    await put("avatars/records.json", []);
    await writer.finish();
    writer = null;
    if (existsSync(to)) throw new ExportError(`${to} appeared while the export was written`);
    await rename(partial, to);
    return {
      bytes: (await stat(to)).size,
      counts: {
        people: t.users!.length,
        channels: t.streams!.length,
        messages: messageCount,
        reactions: t.reactions!.length,
        files: uploadRecords.length,
        emoji: emojiRecords.length,
      },
    };
  } finally {
    writer?.abort();
    db?.close();
    for (const suffix of ["", "-journal", "-wal", "-shm"]) await rm(snapshot + suffix, { force: true });
    await rm(partial, { force: true });
  }
}
