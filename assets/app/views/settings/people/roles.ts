/** The words for roles, as Zulip's web app shows them. */
import { INVITE_ROLES } from "../../../state/permissions";

export const roleName = (role: number): string => INVITE_ROLES.find((r) => r.role === role)?.label ?? "Member";
