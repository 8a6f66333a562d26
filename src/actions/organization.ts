import { nowSecs, reloadGroups, reloadRealm, type App } from "../app";
import { REALM_GROUP_SETTING_DEFAULTS, REALM_PROPERTY_DEFAULTS } from "../domain/realm-settings";
import { storedSettingsJson, type SettingValue, type UserSettingName } from "../domain/user-settings";
import { NOBODY_GROUP, ROLE, SYSTEM_GROUPS } from "../domain/roles";
import { badRequest } from "../errors";
import { addSubgroups, insertGroup } from "../store/groups";
import { insertRealm, updateRealm } from "../store/realm";
import { saveRealmUserDefaults } from "../store/settings";
import { findStreamByName } from "../store/streams";
import { findUserById } from "../store/users";
import { updateRealmSettings } from "./realm";
import { subscribe } from "./subscriptions";
import { createUser, type CreatedUser } from "./users";

export interface NewOrganization {
  name: string;
  description?: string;
  ownerEmail: string;
  ownerFullName: string;
  ownerPassword: string | null;
  /** its new users' personal settings where they differ from Zulip's (default NEW_ORGANIZATION_USER_DEFAULTS) */
  userSettingsDefaults?: Partial<Record<UserSettingName, SettingValue>>;
}

/**
 * What Parley's new organizations give their new users, unlike Zulip's defaults: Enter sends (Shift+Enter
 * makes a new line), as people coming from Slack, Mattermost or Teams expect. An organization changes
 * them with PATCH /realm/user_settings_defaults; organizations made before keep theirs.
 */
export const NEW_ORGANIZATION_USER_DEFAULTS: Partial<Record<UserSettingName, SettingValue>> = { enter_sends: true };

/** Creates the organization, its system groups and its owner (who may create users). */
export async function createOrganization(app: App, input: NewOrganization): Promise<CreatedUser> {
  if (app.realm) throw badRequest("The organization already exists");
  if (!input.name.trim()) throw badRequest("Organization name can't be empty");
  const now = nowSecs(app);
  await app.db.tx(async (sql) => {
    const realmId = await insertRealm(sql, { name: input.name.trim(), description: input.description ?? "", dateCreated: now });
    const ids = new Map<string, number>();
    for (const g of [...SYSTEM_GROUPS, NOBODY_GROUP]) {
      ids.set(g.name, await insertGroup(sql, { realmId, name: g.name, description: g.description, isSystem: true, dateCreated: now }));
    }
    // Each system group contains the next narrower one: internet ⊃ everyone ⊃ members ⊃ ... ⊃ owners.
    for (let i = 0; i + 1 < SYSTEM_GROUPS.length; i++) {
      await addSubgroups(sql, ids.get(SYSTEM_GROUPS[i]!.name)!, [ids.get(SYSTEM_GROUPS[i + 1]!.name)!]);
    }
    const settings: Record<string, unknown> = Object.fromEntries(Object.entries(REALM_GROUP_SETTING_DEFAULTS).map(([k, g]) => [k, ids.get(g)!]));
    // Zulip's do_create_realm: a closed organization (joining needs an invitation, the default) starts
    // with read receipts on. Stored, so that the default of organizations made before stays off.
    settings.enable_read_receipts = REALM_PROPERTY_DEFAULTS.invite_required;
    await updateRealm(sql, realmId, { settings: JSON.stringify(settings) });
    const userDefaults = input.userSettingsDefaults ?? NEW_ORGANIZATION_USER_DEFAULTS;
    // copied into each new user's settings (the owner's too) by the users insert trigger
    if (Object.keys(userDefaults).length) await saveRealmUserDefaults(sql, realmId, storedSettingsJson({}, userDefaults));
  });
  await reloadRealm(app);
  await reloadGroups(app);
  return createUser(app, null, {
    email: input.ownerEmail,
    fullName: input.ownerFullName,
    password: input.ownerPassword,
    role: ROLE.owner,
    canCreateUsers: true,
  });
}

/** The channel a new organization starts with: Zulip's #general, with Zulip's description. */
export const STARTER_CHANNEL = { name: "general", description: "Everyone is added to this channel by default. Welcome!" };

/**
 * What an organization made by `parley init` or a first start has to talk in (Zulip's do_create_realm
 * makes #general the same way): a public channel new people join (a default channel), where new
 * channels and new people are announced, with the owner in it. Made as the owner would make it, so
 * Notification Bot notes its creation. Returns its id.
 */
export async function createStarterChannel(app: App, ownerId: number): Promise<number> {
  const owner = (await findUserById(app.db, ownerId))!;
  await subscribe(app, owner, {
    subscriptions: [STARTER_CHANNEL],
    principals: null,
    authorizationErrorsFatal: true,
    announce: false,
    sendSubscriptionMessages: false,
    inviteOnly: false,
    isWebPublic: false,
    isDefaultStream: true,
    historyPublicToSubscribers: null,
    messageRetentionDays: "realm_default",
    topicsPolicy: null,
    folderId: null,
    groupSettings: {},
  });
  const channel = (await findStreamByName(app.db, STARTER_CHANNEL.name))!;
  await updateRealmSettings(app, owner, { new_stream_announcements_stream_id: channel.id, signup_announcements_stream_id: channel.id });
  return channel.id;
}
