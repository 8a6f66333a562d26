// A Slack export made by the test suite: the zip Slack's "Export data" gives (users.json,
// channels.json, groups.json, dms.json, mpims.json, one folder of day files per conversation),
// with our own people and messages.
import { zipSync, strToU8 } from "fflate";
import { writeFileSync } from "node:fs";

export type Json = Record<string, unknown>;

export interface SlackExport {
  users?: Json[];
  channels?: Json[];
  groups?: Json[];
  dms?: Json[];
  mpims?: Json[];
  /** "folder/YYYY-MM-DD.json" → messages */
  days?: Record<string, Json[]>;
  /** files written as they are (corrupt JSON and the like) */
  raw?: Record<string, string>;
  /** leave these top-level files out */
  omit?: string[];
}

export function writeSlackZip(path: string, e: SlackExport) {
  const files: Record<string, Uint8Array> = {};
  const top: Record<string, unknown> = { "users.json": e.users ?? [], "channels.json": e.channels ?? [], "groups.json": e.groups ?? [], "dms.json": e.dms ?? [], "mpims.json": e.mpims ?? [] };
  for (const [name, value] of Object.entries(top)) if (!e.omit?.includes(name)) files[name] = strToU8(JSON.stringify(value));
  for (const [name, messages] of Object.entries(e.days ?? {})) files[name] = strToU8(JSON.stringify(messages));
  for (const [name, text] of Object.entries(e.raw ?? {})) files[name] = strToU8(text);
  writeFileSync(path, zipSync(files, { level: 1 }));
}

export const user = (id: string, name: string, realName: string, email: string | null, extra: Json = {}): Json => ({
  id,
  team_id: "T01",
  name,
  real_name: realName,
  deleted: false,
  tz: "Europe/Paris",
  is_bot: false,
  profile: email ? { email, real_name: realName } : { real_name: realName },
  ...extra,
});

export const channel = (id: string, name: string, members: string[], purpose = "", extra: Json = {}): Json => ({
  id,
  name,
  created: 1700000000,
  creator: members[0],
  is_archived: false,
  is_general: name === "general",
  members,
  topic: { value: "", creator: "", last_set: 0 },
  purpose: { value: purpose, creator: "", last_set: 0 },
  ...extra,
});

export const message = (user: string, ts: string, text: string, extra: Json = {}): Json => ({ type: "message", user, ts, text, ...extra });
