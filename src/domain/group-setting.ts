import { t } from "elysia";
import { badRequest, ZulipError } from "../errors";
import type { GroupSettingValue } from "./group-graph";

export type { GroupSettingValue } from "./group-graph";

/** An anonymous group-setting value: who is in it directly, and which groups. */
export interface AnonymousGroupValue {
  direct_members: number[];
  direct_subgroups: number[];
}

/** `{new, old}`: the update object of PATCH endpoints (old is the value the client expects now). */
export interface GroupSettingUpdate {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

/**
 * What a setting accepts (Zulip's GroupPermissionSetting). Every flag defaults to the permissive
 * choice except allowInternet (role:internet only where spectators matter).
 */
export interface GroupSettingConfig {
  requireSystemGroup?: boolean;
  allowInternet?: boolean;
  allowNobody?: boolean;
  /** false: role:everyone is refused, and guests never hold the permission. */
  allowEveryone?: boolean;
  allowOwners?: boolean;
  /** when set, only these system groups are accepted */
  allowedSystemGroups?: string[];
}

/** Typebox schemas for route parameters: a value, and an update object. */
export const GroupSettingValueSchema = t.Union([
  t.Integer(),
  t.Object({ direct_members: t.Array(t.Integer()), direct_subgroups: t.Array(t.Integer()) }, { additionalProperties: false }),
]);
export const GroupSettingUpdateSchema = t.Object(
  { new: GroupSettingValueSchema, old: t.Optional(GroupSettingValueSchema) },
  { additionalProperties: false },
);

const sortedUnique = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);

/**
 * Zulip's parse_group_setting_value: an anonymous value with only one subgroup is that group;
 * an empty one is role:nobody; otherwise members and subgroups, sorted and deduplicated.
 */
export function normalizeGroupSettingValue(value: GroupSettingValue, nobodyGroupId: number): GroupSettingValue {
  if (typeof value === "number") return value;
  const members = sortedUnique(value.direct_members);
  const subgroups = sortedUnique(value.direct_subgroups);
  if (members.length === 0 && subgroups.length === 1) return subgroups[0]!;
  if (members.length === 0 && subgroups.length === 0) return nobodyGroupId;
  return { direct_members: members, direct_subgroups: subgroups };
}

/** Two values are equal when both are the same group id, or both anonymous with the same sets. */
export function sameGroupSettingValue(a: GroupSettingValue, b: GroupSettingValue): boolean {
  if (typeof a === "number" || typeof b === "number") return a === b;
  const eq = (x: number[], y: number[]) => {
    const xs = sortedUnique(x);
    const ys = sortedUnique(y);
    return xs.length === ys.length && xs.every((v, i) => v === ys[i]);
  };
  return eq(a.direct_members, b.direct_members) && eq(a.direct_subgroups, b.direct_subgroups);
}

export const expectationMismatch = () =>
  new ZulipError("EXPECTATION_MISMATCH", "'old' value does not match the expected value.", 400);

/**
 * Zulip's validate_group_setting_value_change: refuses a stale `old`, and answers whether `new`
 * differs from the current value (false means nothing to do).
 */
export function groupSettingChanges(current: GroupSettingValue, update: GroupSettingUpdate): boolean {
  if (update.old !== undefined && !sameGroupSettingValue(current, update.old)) throw expectationMismatch();
  return !sameGroupSettingValue(current, update.new);
}

/** A named group as a setting value: checks the setting's rules about system groups. */
export function checkGroupForSetting(
  group: { name: string | null; is_system_group: number | boolean; deactivated: number | boolean } | undefined,
  settingName: string,
  config: GroupSettingConfig,
): void {
  if (!group || group.name === null) throw badRequest("Invalid user group");
  if (group.deactivated) throw badRequest("User group is deactivated.");
  if (config.requireSystemGroup && !group.is_system_group) throw systemGroupRequired(settingName);
  const refuse = (name: string) => badRequest(`'${settingName}' setting cannot be set to '${name}' group.`);
  if (!config.allowInternet && group.name === "role:internet") throw refuse(group.name);
  if (config.allowNobody === false && group.name === "role:nobody") throw refuse(group.name);
  if (config.allowEveryone === false && group.name === "role:everyone") throw refuse(group.name);
  if (config.allowOwners === false && group.name === "role:owners") throw refuse(group.name);
  if (config.allowedSystemGroups && group.is_system_group && !config.allowedSystemGroups.includes(group.name)) throw refuse(group.name);
}

export const systemGroupRequired = (settingName: string) =>
  new ZulipError("SYSTEM_GROUP_REQUIRED", `'${settingName}' must be a system user group.`, 400, { setting_name: settingName });
