import { realmOf, type App } from "../app";
import type { ProfileData } from "../domain/user-format";
import { listValuesOf } from "../store/profile-fields";

/** The profile_data of these users (all users when "all"): one query. */
export async function profileDataOf(app: App, userIds: number[] | "all"): Promise<Map<number, ProfileData>> {
  const rows = await listValuesOf(app.db, userIds, realmOf(app).id);
  const out = new Map<number, ProfileData>();
  for (const r of rows) {
    let data = out.get(r.user_id);
    if (!data) out.set(r.user_id, (data = {}));
    data[String(r.field_id)] = r.rendered_value !== null ? { value: r.value, rendered_value: r.rendered_value } : { value: r.value };
  }
  return out;
}
