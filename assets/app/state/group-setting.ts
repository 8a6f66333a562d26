/** Who holds a permission: a user group's id, or an anonymous group (the same type as types.ts's GroupSetting, kept here so org.ts needs no import of types.ts). */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/** A group-setting value as the app keeps it (an anonymous group's lists sorted). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON from the server
export const toGroupSetting = (v: any): GroupSettingValue =>
  typeof v === "number" ? v : { direct_members: [...(v?.direct_members ?? [])].sort((a: number, b: number) => a - b), direct_subgroups: [...(v?.direct_subgroups ?? [])].sort((a: number, b: number) => a - b) };
