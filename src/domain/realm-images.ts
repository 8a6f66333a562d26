import { realmIconUrl } from "./user-format";

/** The organization fields its icon and logo URLs depend on. */
export interface RealmImageState {
  id: number;
  string_id: string;
  settings: Record<string, unknown>;
}

export type LogoKind = "logo" | "night_logo";

/** Zulip's default wide logo (its static path, which Parley serves with its own mark). */
export const DEFAULT_LOGO_URL = "/static/images/logo/zulip-org-logo.svg?version=0";

/** Zulip's get_realm_icon_url: the uploaded icon ("U") by version, else the Gravatar identicon. */
export function iconUrl(realm: RealmImageState): string {
  if (realm.settings.icon_source === "U") return `/user_avatars/${realm.id}/realm/icon.png?version=${realm.settings.icon_version}`;
  return realmIconUrl(realm.string_id);
}

/** Zulip's get_realm_logo_url: the uploaded day or night logo by version, else the default logo. */
export function logoUrl(realm: RealmImageState, kind: LogoKind): string {
  if (realm.settings[`${kind}_source`] === "U") return `/user_avatars/${realm.id}/realm/${kind}.png?version=${realm.settings[`${kind}_version`]}`;
  return DEFAULT_LOGO_URL;
}

/** The six /register fields of the icon and logos. */
export function realmImageFields(realm: RealmImageState) {
  return {
    realm_icon_url: iconUrl(realm),
    realm_icon_source: String(realm.settings.icon_source),
    realm_logo_url: logoUrl(realm, "logo"),
    realm_logo_source: String(realm.settings.logo_source),
    realm_night_logo_url: logoUrl(realm, "night_logo"),
    realm_night_logo_source: String(realm.settings.night_logo_source),
  };
}
