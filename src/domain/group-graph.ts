/**
 * The organization's user groups as a graph, for answering membership questions without SQL.
 * Built from the membership and subgroup rows; rebuilt whenever a group or a role changes.
 */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export class GroupGraph {
  private readonly members = new Map<number, Set<number>>();
  private readonly subgroups = new Map<number, Set<number>>();
  private readonly recursive = new Map<number, Set<number>>();

  constructor(memberships: { group_id: number; user_id: number }[], edges: { group_id: number; subgroup_id: number }[]) {
    for (const m of memberships) add(this.members, m.group_id, m.user_id);
    for (const e of edges) add(this.subgroups, e.group_id, e.subgroup_id);
  }

  directMembers(groupId: number): number[] {
    return [...(this.members.get(groupId) ?? [])].sort((a, b) => a - b);
  }

  directSubgroups(groupId: number): number[] {
    return [...(this.subgroups.get(groupId) ?? [])].sort((a, b) => a - b);
  }

  /** Every user in the group, through nested subgroups too. */
  allMembers(groupId: number): Set<number> {
    let set = this.recursive.get(groupId);
    if (set) return set;
    set = new Set();
    const seen = new Set<number>();
    const stack = [groupId];
    while (stack.length) {
      const g = stack.pop()!;
      if (seen.has(g)) continue;
      seen.add(g);
      for (const u of this.members.get(g) ?? []) set.add(u);
      for (const s of this.subgroups.get(g) ?? []) stack.push(s);
    }
    this.recursive.set(groupId, set);
    return set;
  }

  isMember(groupId: number, userId: number, directOnly = false): boolean {
    if (directOnly) return this.members.get(groupId)?.has(userId) ?? false;
    return this.allMembers(groupId).has(userId);
  }

  /** Whether a group-setting value (a group id or an anonymous {members, subgroups}) includes the user. */
  settingIncludes(value: GroupSettingValue, userId: number): boolean {
    if (typeof value === "number") return this.isMember(value, userId);
    return value.direct_members.includes(userId) || value.direct_subgroups.some((g) => this.isMember(g, userId));
  }

  /** All users a group-setting value includes. */
  settingMembers(value: GroupSettingValue): Set<number> {
    if (typeof value === "number") return this.allMembers(value);
    const out = new Set(value.direct_members);
    for (const g of value.direct_subgroups) for (const u of this.allMembers(g)) out.add(u);
    return out;
  }

  /** True when making `subgroupId` a subgroup of `groupId` would close a cycle. */
  wouldCycle(groupId: number, subgroupId: number): boolean {
    if (groupId === subgroupId) return true;
    const stack = [subgroupId];
    const seen = new Set<number>();
    while (stack.length) {
      const g = stack.pop()!;
      if (g === groupId) return true;
      if (seen.has(g)) continue;
      seen.add(g);
      for (const s of this.subgroups.get(g) ?? []) stack.push(s);
    }
    return false;
  }
}

function add(map: Map<number, Set<number>>, key: number, value: number) {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}
