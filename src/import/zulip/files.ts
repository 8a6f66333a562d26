// Custom emoji and uploads from the export's emoji/ and uploads/ folders (found through their
// records.json), stored anew; the id and path maps let reactions and message links follow them.
import { copyFile } from "node:fs/promises";
import type { SkipLog } from "../common/problems";
import type { ImportWriter } from "../common/writer";
import { emojiFileName, updateImportedEmoji } from "../../store/zulip";
import type { ExportFolder } from "./archive";
import { fk, push, table, type IdMaps, type Row } from "./rows";

export async function importEmoji(x: ExportFolder, data: Row, w: ImportWriter, skips: SkipLog, maps: IdMaps): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const records = x.json<Row[]>("emoji/records.json", false) ?? [];
  const byFile = new Map(records.map((r) => [String(r.file_name ?? String(r.path).split("/").pop()), r]));
  for (const e of table(data, "zerver_realmemoji")) {
    const where = `realm.json: zerver_realmemoji ${e.name}`;
    const record = byFile.get(String(e.file_name));
    const path = record ? x.path(`emoji/${record.path}`) : null;
    if (!path || !x.has(`emoji/${record!.path}`)) {
      skips.skip("emoji", where, `its image ${e.file_name} is not in emoji/`);
      continue;
    }
    const ext = String(e.file_name).split(".").pop()!.toLowerCase();
    const made = await w.addRealmEmoji(String(e.name), path, ext);
    out.set(e.id, made.id);
    const file = (await emojiFileName(w.app.db, made.id))!;
    maps.emojiFiles.set(String(e.file_name), file);
    const author = maps.users.get(fk(e, "author") ?? -1) ?? w.owner.id;
    await w.app.db.tx((sql) => updateImportedEmoji(sql, made.id, author, Boolean(e.deactivated)));
  }
  return out;
}

/** Stores each attachment's file; the new attachment ids by old message id. */
export async function importUploads(x: ExportFolder, w: ImportWriter, skips: SkipLog, maps: IdMaps): Promise<Map<number, number[]>> {
  const byMessage = new Map<number, number[]>();
  const attachments = table(x.json<Row>("attachment.json", false) ?? {}, "zerver_attachment", "attachment.json");
  const records = x.json<Row[]>("uploads/records.json", false) ?? [];
  const byPath = new Map<string, Row>();
  for (const r of records) {
    if (typeof r.s3_path === "string") byPath.set(r.s3_path, r);
    if (typeof r.path === "string") byPath.set(r.path, r);
  }
  for (const a of attachments) {
    const where = `attachment.json: zerver_attachment id ${a.id} (${a.file_name})`;
    const owner = maps.users.get(fk(a, "owner") ?? -1);
    if (owner === undefined) {
      skips.skip("files", where, "its owner is not in zerver_userprofile");
      continue;
    }
    const rel = `uploads/${byPath.get(String(a.path_id))?.path ?? a.path_id}`;
    if (!x.has(rel)) {
      skips.skip("files", where, `its file ${rel} is not in the export`);
      continue;
    }
    const temp = await w.tempPath();
    await copyFile(x.path(rel), temp);
    const size = (await Bun.file(temp).size) as number;
    const stored = await w.storeFile(owner, temp, String(a.file_name ?? String(a.path_id).split("/").pop()), size);
    maps.uploads.set(String(a.path_id), stored.pathId);
    for (const m of Array.isArray(a.messages) ? a.messages : []) {
      const id = typeof m === "number" ? m : m?.id;
      if (typeof id === "number") push(byMessage, id, stored.attachmentId);
    }
  }
  return byMessage;
}
