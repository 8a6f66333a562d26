/**
 * The organization's icon and its day and night logos (POST and DELETE /realm/icon and /realm/logo),
 * following Zulip's views/realm_icon.py, realm_logo.py and do_change_icon_source /
 * do_change_logo_source: administrators only; a 100×100 square icon and logos fitting 800×100,
 * stored under /user_avatars/{realm_id}/realm/; the source and a version kept with the settings;
 * a realm update_dict event (property icon, logo or night_logo) to every active user.
 */
import { realmOf, reloadRealm, type App } from "../app";
import { iconUrl, logoUrl, type LogoKind } from "../domain/realm-images";
import { isAdmin } from "../domain/roles";
import { adminRequired, badRequest } from "../errors";
import { findRealm, updateRealm } from "../store/realm";
import { listActiveUserIds, type UserRow } from "../store/users";
import { AVATAR_SIZE, logoImage, squareImage } from "../uploads/profile-images";
import { uploadsOf } from "../uploads/runtime";
import { converted, receiveImage } from "./image-upload";

function checkAdmin(me: UserRow): void {
  if (!isAdmin(me.role)) throw adminRequired();
}

/** Stores `{kind}_source` and bumps `{kind}_version` in the organization's settings. */
async function changeSource(app: App, kind: "icon" | LogoKind, source: string): Promise<void> {
  await app.db.tx(async (sql) => {
    const row = (await findRealm(sql))!;
    const stored = JSON.parse(row.settings || "{}") as Record<string, unknown>;
    const version = Number(stored[`${kind}_version`] ?? realmOf(app).settings[`${kind}_version`] ?? 1);
    stored[`${kind}_source`] = source;
    stored[`${kind}_version`] = version + 1;
    await updateRealm(sql, row.id, { settings: JSON.stringify(stored) });
  });
  await reloadRealm(app);
  const realm = realmOf(app);
  const data =
    kind === "icon"
      ? { icon_url: iconUrl(realm), icon_source: source }
      : { [`${kind}_url`]: logoUrl(realm, kind), [`${kind}_source`]: source };
  app.events.publish({ type: "realm", op: "update_dict", property: kind, data }, await listActiveUserIds(app.db, realm.id));
}

/** POST /realm/icon: the request's one image becomes the organization's icon. Returns its URL. */
export async function uploadRealmIcon(app: App, me: UserRow, request: Request): Promise<string> {
  checkAdmin(me);
  const data = await receiveImage(app, request, "icon");
  const icon = await converted(() => squareImage(data, AVATAR_SIZE));
  await uploadsOf(app).storage.writeAtomic(`avatars/${realmOf(app).id}/realm/icon.png`, icon);
  await changeSource(app, "icon", "U");
  return iconUrl(realmOf(app));
}

/** DELETE /realm/icon: back to the generated icon (the file stays, as Zulip's does, for cached pages). */
export async function deleteRealmIcon(app: App, me: UserRow): Promise<string> {
  checkAdmin(me);
  await changeSource(app, "icon", "G");
  return iconUrl(realmOf(app));
}

/** `night` as Zulip reads it (a JSON boolean); a multipart field arrives as text. */
export function parseNight(raw: string | undefined): boolean {
  if (raw === undefined) return false;
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw badRequest("night is not a boolean");
}

/** POST /realm/logo: the request's one image becomes the day (or, with `night`, the dark theme's) logo. */
export async function uploadRealmLogo(app: App, me: UserRow, request: Request): Promise<void> {
  checkAdmin(me);
  const fields = new Map<string, string>();
  const data = await receiveImage(app, request, "logo", fields);
  const night = parseNight(fields.get("night") ?? new URL(request.url).searchParams.get("night") ?? undefined);
  const kind: LogoKind = night ? "night_logo" : "logo";
  const logo = await converted(() => logoImage(data));
  await uploadsOf(app).storage.writeAtomic(`avatars/${realmOf(app).id}/realm/${kind}.png`, logo);
  await changeSource(app, kind, "U");
}

/** DELETE /realm/logo: back to the default logo. */
export async function deleteRealmLogo(app: App, me: UserRow, night: boolean): Promise<void> {
  checkAdmin(me);
  await changeSource(app, night ? "night_logo" : "logo", "D");
}
