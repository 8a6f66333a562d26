import type { Sql } from "./db";

export interface PushDeviceRow {
  id: number;
  user_id: number;
  kind: "apns" | "fcm";
  token: string;
  appid: string | null;
  created: number;
}

/** Stores a device token; an identical registration is kept as is (Zulip: ignore_conflicts). */
export async function insertPushDevice(sql: Sql, d: Omit<PushDeviceRow, "id">): Promise<boolean> {
  const { changes } = await sql.run("INSERT OR IGNORE INTO push_devices (user_id, kind, token, appid, created) VALUES (?, ?, ?, ?, ?)", [
    d.user_id,
    d.kind,
    d.token,
    d.appid,
    d.created,
  ]);
  return changes > 0;
}

export const findPushDevice = (sql: Sql, userId: number, kind: PushDeviceRow["kind"], token: string) =>
  sql.get<PushDeviceRow>("SELECT * FROM push_devices WHERE user_id = ? AND kind = ? AND token = ?", [userId, kind, token]);

export const deletePushDevice = (sql: Sql, id: number) => sql.run("DELETE FROM push_devices WHERE id = ?", [id]);

/** The user's devices with this token (any kind), oldest first. */
export const listPushDevicesByToken = (sql: Sql, userId: number, token: string) =>
  sql.all<PushDeviceRow>("SELECT * FROM push_devices WHERE user_id = ? AND token = ? ORDER BY id", [userId, token]);

export const listPushDevices = (sql: Sql, userId: number) =>
  sql.all<PushDeviceRow>("SELECT * FROM push_devices WHERE user_id = ? ORDER BY id", [userId]);
