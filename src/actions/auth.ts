import { realmOf, type App } from "../app";
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from "../domain/version";
import { iconUrl } from "../domain/realm-images";
import { badRequest, ZulipError } from "../errors";
import { findUserByEmail, type UserRow } from "../store/users";
import { checkLoginAllowed, loginFailed, loginSucceeded } from "./login-throttle";
import { vapidKeys } from "../notify/webpush/vapid";

const authFailed = () => new ZulipError("AUTHENTICATION_FAILED", "Your username or password is incorrect", 401);

/**
 * POST /fetch_api_key: email + password → API key, with Zulip's specific failure codes. `address` is
 * the client's (login-throttle.ts: failed attempts are throttled per account and per address).
 */
export async function fetchApiKey(app: App, username: string, password: string, address: string) {
  const realm = realmOf(app);
  checkLoginAllowed(app, username, address);
  const user = await findUserByEmail(app.db, realm.id, username.trim());
  // Verify against a dummy hash when the user is unknown, so timing does not reveal which emails exist.
  const hash = user?.password_hash ?? DUMMY_HASH;
  const ok = password.length > 0 && (await Bun.password.verify(password, hash).catch(() => false));
  if (!user || !user.password_hash || !ok) {
    loginFailed(app, username, address);
    throw authFailed();
  }
  loginSucceeded(app, username, address);
  if (realm.deactivated) throw new ZulipError("REALM_DEACTIVATED", "This organization has been deactivated", 401);
  if (!user.is_active) throw new ZulipError("USER_DEACTIVATED", "Account is deactivated", 401);
  return { api_key: user.api_key, email: user.email, user_id: user.id };
}

/**
 * The web app's POST /json/fetch_api_key (Zulip's json_fetch_api_key): the logged-in person's own key,
 * after they enter their password again. A wrong password is a plain 400 (the session stays), and counts
 * against the same login limits as the login form.
 */
export async function fetchOwnApiKey(app: App, me: UserRow, password: string, address: string) {
  checkLoginAllowed(app, me.delivery_email, address);
  const ok = me.password_hash !== null && password.length > 0 && (await Bun.password.verify(password, me.password_hash).catch(() => false));
  if (!ok) {
    loginFailed(app, me.delivery_email, address);
    throw badRequest("Password is incorrect.");
  }
  loginSucceeded(app, me.delivery_email, address);
  return { api_key: me.api_key, email: me.email };
}

/** An argon2id hash of a random, forgotten password (precomputed: hashing at start-up cost ~110 ms). */
const DUMMY_HASH = "$argon2id$v=19$m=65536,t=2,p=1$j80OGTgZzDFM7ZOoTjrk5yY0Qo0vfsbSY0iOZ3lL9wU$4w8h+RLjK2HvdqJo04ReDb7ndZ/LJXvQHnl8Y7bZ+30";

/** GET /server_settings: what a client asks before logging in. */
export function serverSettings(app: App) {
  const realm = app.realm;
  const url = app.config.server.external_url;
  return {
    authentication_methods: { password: true, dev: false, email: true, ldap: false, remoteuser: false, github: false, azuread: false, gitlab: false, apple: false, google: false, saml: false, "openid connect": false },
    external_authentication_methods: [],
    zulip_version: ZULIP_VERSION,
    zulip_merge_base: ZULIP_MERGE_BASE,
    zulip_feature_level: ZULIP_FEATURE_LEVEL,
    push_notifications_enabled: Boolean(app.config.push.relay_url),
    is_incompatible: false,
    email_auth_enabled: true,
    require_email_format_usernames: true,
    realm_url: url,
    realm_uri: url,
    realm_name: realm?.name ?? "",
    realm_icon: realm ? iconUrl(realm) : "",
    realm_description: realm?.description ?? "",
    realm_web_public_access_enabled: Boolean(realm?.settings.enable_spectator_access),
    // Parley's own: the key browsers subscribe to Web Push with (applicationServerKey)
    web_push_vapid_public_key: vapidKeys(app.config.data_dir).publicKey,
  };
}
