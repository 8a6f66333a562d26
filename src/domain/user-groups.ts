import { badRequest } from "../errors";
import type { GroupSettingConfig } from "./group-setting";

/** The permission settings every named user group has (Zulip's NamedUserGroup.GROUP_PERMISSION_SETTINGS). */
export const USER_GROUP_SETTINGS = {
  can_add_members_group: { allowNobody: true, allowEveryone: false, defaultGroup: "group_creator" },
  can_join_group: { allowNobody: true, allowEveryone: false, defaultGroup: "role:nobody" },
  can_leave_group: { allowNobody: true, allowEveryone: true, defaultGroup: "role:everyone" },
  can_manage_group: { allowNobody: true, allowEveryone: false, defaultGroup: "group_creator" },
  can_mention_group: { allowNobody: true, allowEveryone: true, defaultGroup: "role:everyone" },
  can_remove_members_group: { allowNobody: true, allowEveryone: false, defaultGroup: "role:nobody" },
} as const satisfies Record<string, GroupSettingConfig & { defaultGroup: string }>;

export type UserGroupSettingName = keyof typeof USER_GROUP_SETTINGS;
export const USER_GROUP_SETTING_NAMES = Object.keys(USER_GROUP_SETTINGS) as UserGroupSettingName[];

/** System groups are managed by the server: every permission on them is role:nobody. */
export const SYSTEM_GROUP_SETTING_DEFAULT = "role:nobody";

export const MAX_GROUP_NAME_LENGTH = 100;
const INVALID_NAME_PREFIXES = ["@", "role:", "user:", "stream:", "channel:"];

/** Zulip's check_user_group_name. */
export function checkUserGroupName(name: string): string {
  if (name.trim() === "") throw badRequest("User group name can't be empty!");
  if (name.length > MAX_GROUP_NAME_LENGTH) throw badRequest(`User group name cannot exceed ${MAX_GROUP_NAME_LENGTH} characters.`);
  for (const prefix of INVALID_NAME_PREFIXES) {
    if (name.startsWith(prefix)) throw badRequest(`User group name cannot start with '${prefix}'.`);
  }
  return name;
}

/** The group's stored settings JSON, each a user_groups id. */
export type StoredGroupSettings = Partial<Record<UserGroupSettingName, number>>;

/** A member is a full member once `thresholdDays` have passed since they joined (Zulip's waiting period). */
export const isFullMember = (dateJoined: number, thresholdDays: number, nowSecs: number) => nowSecs - dateJoined >= thresholdDays * 86400;
