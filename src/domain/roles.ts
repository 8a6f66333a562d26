import { own } from "../lib/own";

/** Zulip's user roles and the system groups that follow them. */
export const ROLE = { owner: 100, administrator: 200, moderator: 300, member: 400, guest: 600 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];
export const ROLES: readonly number[] = Object.values(ROLE);

export const roleByName = (name: string): Role | undefined => own(ROLE, name);

export const isAdmin = (role: number) => role <= ROLE.administrator;
export const isOwner = (role: number) => role === ROLE.owner;
export const isModerator = (role: number) => role <= ROLE.moderator;
export const isGuest = (role: number) => role === ROLE.guest;

/** System groups, from the widest to the narrowest. Each contains the next as a subgroup. */
export const SYSTEM_GROUPS = [
  { name: "role:internet", description: "Everyone on the Internet", directRole: null },
  { name: "role:everyone", description: "Everyone including guests", directRole: ROLE.guest },
  { name: "role:members", description: "Everyone except guests", directRole: ROLE.member },
  { name: "role:fullmembers", description: "Members who are not new", directRole: ROLE.member },
  { name: "role:moderators", description: "Moderators", directRole: ROLE.moderator },
  { name: "role:administrators", description: "Administrators", directRole: ROLE.administrator },
  { name: "role:owners", description: "Owners", directRole: ROLE.owner },
] as const;
export const NOBODY_GROUP = { name: "role:nobody", description: "Nobody" } as const;
export type SystemGroupName = (typeof SYSTEM_GROUPS)[number]["name"] | "role:nobody";

/** The system groups a user of `role` is a direct member of. */
export function systemGroupsForRole(role: number): SystemGroupName[] {
  switch (role) {
    case ROLE.owner:
      return ["role:owners"];
    case ROLE.administrator:
      return ["role:administrators"];
    case ROLE.moderator:
      return ["role:moderators"];
    case ROLE.member:
      return ["role:members", "role:fullmembers"];
    default:
      return ["role:everyone"];
  }
}
