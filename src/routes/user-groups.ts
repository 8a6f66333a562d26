import { Elysia, t } from "elysia";
import type { App } from "../app";
import { createUserGroup, deactivateUserGroup, listUserGroups, updateUserGroup } from "../actions/user-groups";
import { groupMembers, groupSubgroups, isGroupMember, updateGroupMembers, updateGroupSubgroups } from "../actions/user-group-members";
import { GroupSettingUpdateSchema, GroupSettingValueSchema } from "../domain/group-setting";
import { USER_GROUP_SETTING_NAMES } from "../domain/user-groups";
import { MAX_LIST_ITEMS, pathInt } from "../http/params";
import { zulip } from "../http/plugin";

const Ids = t.Array(t.Integer(), { maxItems: MAX_LIST_ITEMS, default: [] });
const settingParams = <S>(schema: S) => Object.fromEntries(USER_GROUP_SETTING_NAMES.map((n) => [n, t.Optional(schema as any)]));
const pick = <V>(p: Record<string, unknown>) =>
  Object.fromEntries(USER_GROUP_SETTING_NAMES.filter((n) => p[n] !== undefined).map((n) => [n, p[n] as V]));
const groupId = (params: { user_group_id: string }) => pathInt(params.user_group_id, "user_group_id");

const GroupListArgs = t.Object({ include_deactivated_groups: t.Boolean({ default: false, aliases: ["allow_deactivated"] }) });
const GroupCreateArgs = t.Object({ name: t.String(), description: t.String(), members: t.Array(t.Integer(), { maxItems: MAX_LIST_ITEMS }), subgroups: Ids, ...settingParams(GroupSettingValueSchema) });
const GroupUpdateArgs = t.Object({ name: t.Optional(t.String()), description: t.Optional(t.String()), ...settingParams(GroupSettingUpdateSchema) });
const MembersUpdateArgs = t.Object({ add: Ids, delete: Ids, add_subgroups: Ids, delete_subgroups: Ids });
const DirectMemberOnlyArgs = t.Object({ direct_member_only: t.Boolean({ default: false }) });
const SubgroupsUpdateArgs = t.Object({ add: Ids, delete: Ids });
const SubgroupsListArgs = t.Object({ direct_subgroup_only: t.Boolean({ default: false }) });

export const userGroupRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get(
      "/user_groups",
      async ({ args, me }) => {
        const p = args.read(GroupListArgs);
        return args.success({ user_groups: await listUserGroups(app, me, p.include_deactivated_groups) });
      },
      { auth: true },
    )
    .post(
      "/user_groups/create",
      async ({ args, me }) => {
        const p = args.read(GroupCreateArgs) as Record<string, any>;
        const id = await createUserGroup(app, me, { name: p.name, description: p.description, members: p.members, subgroups: p.subgroups, settings: pick(p) });
        return args.success({ group_id: id });
      },
      { auth: true },
    )
    .patch(
      "/user_groups/:user_group_id",
      async ({ args, me, params }) => {
        const p = args.read(GroupUpdateArgs) as Record<string, any>;
        await updateUserGroup(app, me, groupId(params), { name: p.name, description: p.description, settings: pick(p) });
        return args.success();
      },
      { auth: true },
    )
    .post(
      "/user_groups/:user_group_id/members",
      async ({ args, me, params }) => {
        const p = args.read(MembersUpdateArgs);
        await updateGroupMembers(app, me, groupId(params), { add: p.add, delete: p.delete, addSubgroups: p.add_subgroups, deleteSubgroups: p.delete_subgroups });
        return args.success();
      },
      { auth: true },
    )
    .get(
      "/user_groups/:user_group_id/members",
      async ({ args, me, params }) => {
        const p = args.read(DirectMemberOnlyArgs);
        return args.success({ members: await groupMembers(app, me, groupId(params), p.direct_member_only) });
      },
      { auth: true },
    )
    .get(
      "/user_groups/:user_group_id/members/:user_id",
      async ({ args, me, params }) => {
        const p = args.read(DirectMemberOnlyArgs);
        const member = await isGroupMember(app, me, groupId(params), pathInt(params.user_id, "user_id"), p.direct_member_only);
        return args.success({ is_user_group_member: member });
      },
      { auth: true },
    )
    .post(
      "/user_groups/:user_group_id/subgroups",
      async ({ args, me, params }) => {
        const p = args.read(SubgroupsUpdateArgs);
        await updateGroupSubgroups(app, me, groupId(params), { add: p.add, delete: p.delete });
        return args.success();
      },
      { auth: true },
    )
    .get(
      "/user_groups/:user_group_id/subgroups",
      async ({ args, me, params }) => {
        const p = args.read(SubgroupsListArgs);
        return args.success({ subgroups: await groupSubgroups(app, me, groupId(params), p.direct_subgroup_only) });
      },
      { auth: true },
    )
    .post(
      "/user_groups/:user_group_id/deactivate",
      async ({ args, me, params }) => {
        await deactivateUserGroup(app, me, groupId(params));
        return args.success();
      },
      { auth: true },
    );
