import { describe, expect, test } from "bun:test";
import { checkGroupForSetting, groupSettingChanges, normalizeGroupSettingValue, sameGroupSettingValue } from "../../src/domain/group-setting";

const NOBODY = 99;

describe("group-setting values", () => {
  test("an anonymous value with one subgroup and no members is that group", () => {
    expect(normalizeGroupSettingValue({ direct_members: [], direct_subgroups: [7] }, NOBODY)).toBe(7);
  });

  test("an empty anonymous value is role:nobody", () => {
    expect(normalizeGroupSettingValue({ direct_members: [], direct_subgroups: [] }, NOBODY)).toBe(NOBODY);
  });

  test("anonymous values are sorted and deduplicated", () => {
    expect(normalizeGroupSettingValue({ direct_members: [5, 3, 5], direct_subgroups: [2, 1] }, NOBODY)).toEqual({ direct_members: [3, 5], direct_subgroups: [1, 2] });
  });

  test("equality ignores order but not kind", () => {
    expect(sameGroupSettingValue(3, 3)).toBe(true);
    expect(sameGroupSettingValue(3, { direct_members: [], direct_subgroups: [3] })).toBe(false);
    expect(sameGroupSettingValue({ direct_members: [2, 1], direct_subgroups: [] }, { direct_members: [1, 2], direct_subgroups: [] })).toBe(true);
  });

  test("a stale old value is refused with EXPECTATION_MISMATCH", () => {
    expect(() => groupSettingChanges(3, { new: 4, old: 5 })).toThrow("'old' value does not match the expected value.");
    try {
      groupSettingChanges(3, { new: 4, old: 5 });
    } catch (e: any) {
      expect(e.code).toBe("EXPECTATION_MISMATCH");
    }
  });

  test("a matching old value or none lets the change through; an equal new value is no change", () => {
    expect(groupSettingChanges(3, { new: 4, old: 3 })).toBe(true);
    expect(groupSettingChanges(3, { new: 4 })).toBe(true);
    expect(groupSettingChanges(3, { new: 3 })).toBe(false);
  });

  test("system-group rules of a setting are enforced", () => {
    const g = (name: string, sys = 1) => ({ name, is_system_group: sys, deactivated: 0 });
    expect(() => checkGroupForSetting(g("role:internet"), "x", {})).toThrow("'x' setting cannot be set to 'role:internet' group.");
    expect(() => checkGroupForSetting(g("role:everyone"), "x", { allowEveryone: false })).toThrow("'x' setting cannot be set to 'role:everyone' group.");
    expect(() => checkGroupForSetting(g("role:nobody"), "x", { allowNobody: false })).toThrow("'x' setting cannot be set to 'role:nobody' group.");
    expect(() => checkGroupForSetting(g("team", 0), "x", { requireSystemGroup: true })).toThrow("'x' must be a system user group.");
    expect(() => checkGroupForSetting(undefined, "x", {})).toThrow("Invalid user group");
    expect(() => checkGroupForSetting({ name: "old", is_system_group: 0, deactivated: 1 }, "x", {})).toThrow("User group is deactivated.");
    expect(() => checkGroupForSetting(g("role:members"), "x", { allowEveryone: false })).not.toThrow();
  });
});
