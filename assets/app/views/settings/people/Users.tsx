/**
 * The people of the organization (Zulip's "Users" and its people directory): search, filters by role and
 * kind, each person's card; for administrators the role select and Deactivate, and on the deactivated
 * list Reactivate. The lists follow the store: a change arrives as an event and redraws them.
 */
import { useState } from "preact/hooks";
import { changeRole, reactivatePerson, sendPasswordReset } from "../../../api/settings-calls";
import { assignableRoles, canDeactivateUser, canReactivateUser, canSendPasswordReset } from "../../../state/permissions";
import { state } from "../../../state/store";
import type { User } from "../../../state/types";
import { openDialog } from "../../Dialog";
import { Avatar, PresenceDot } from "../../people-bits";
import { Select } from "../controls";
import { ActionButton } from "./ActionButton";
import { DeactivateDialog } from "./Deactivate";
import { openProfile } from "./open-profile";
import { roleName } from "./roles";

type Kind = "people" | "bots" | "everyone";

function matches(u: User, needle: string) {
  return !needle || u.full_name.toLowerCase().includes(needle) || (u.delivery_email ?? u.email).toLowerCase().includes(needle);
}

function PersonRow({ u }: { u: User }) {
  const s = state.value!;
  const roles = u.is_active ? assignableRoles(s, u.user_id) : [];
  return (
    <tr class="user-row" data-user-id={u.user_id}>
      <td>
        <button type="button" class="link-button user-name" onClick={() => openProfile(u.user_id)} aria-label={`Profile of ${u.full_name}`}>
          <Avatar userId={u.user_id} size={24} />
          {u.is_active && <PresenceDot userId={u.user_id} />}
          <span>{u.full_name}</span>
        </button>
      </td>
      <td class="muted-text">{u.delivery_email ?? ""}</td>
      <td>
        {roles.length && u.user_id !== s.me ? (
          <Select label={<span class="visually-hidden">Role of {u.full_name}</span>} name={`role-${u.user_id}`} value={u.role} choices={roles.map((r) => ({ value: r.role as number, label: r.label }))} onSave={(r) => changeRole(u.user_id, r)} />
        ) : (
          <span>{u.is_bot ? "Bot" : roleName(u.role)}</span>
        )}
      </td>
      <td>
        {canDeactivateUser(s, u.user_id) && !u.is_bot && <button type="button" class="button danger" aria-label={`Deactivate ${u.full_name}`} onClick={() => openDialog(() => <DeactivateDialog userId={u.user_id} />)}>Deactivate</button>}
        {canSendPasswordReset(s, u.user_id) && u.user_id !== s.me && <ActionButton label="Reset password" aria={`Reset password for ${u.full_name} (sends them an email)`} run={() => sendPasswordReset(u.user_id)} />}
        {canReactivateUser(s, u.user_id) && <ActionButton label="Reactivate" aria={`Reactivate ${u.full_name}`} run={() => reactivatePerson(u.user_id)} />}
      </td>
    </tr>
  );
}

function PeopleTable({ active }: { active: boolean }) {
  const s = state.value!;
  const [filter, setFilter] = useState("");
  const [role, setRole] = useState("all");
  const [kind, setKind] = useState<Kind>("people");
  const needle = filter.trim().toLowerCase();
  const shown = Object.values(s.users)
    .filter((u) => u.is_active === active && matches(u, needle))
    .filter((u) => (kind === "everyone" ? true : kind === "bots" ? u.is_bot : !u.is_bot))
    .filter((u) => role === "all" || String(u.role) === role)
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <div class="settings-form">
      <div class="settings-filters">
        <input class="settings-filter" type="search" aria-label="Search people" placeholder="Search people" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
        <label>
          Role{" "}
          <select value={role} onChange={(e) => setRole(e.currentTarget.value)}>
            <option value="all">All roles</option>
            {[100, 200, 300, 400, 600].map((r) => (
              <option key={r} value={String(r)}>
                {roleName(r)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Show{" "}
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind)}>
            <option value="people">People</option>
            <option value="bots">Bots</option>
            <option value="everyone">People and bots</option>
          </select>
        </label>
      </div>
      <p class="setting-hint" role="status">
        {shown.length === 1 ? "1 shown" : `${shown.length} shown`}
      </p>
      <div class="settings-table-wrap">
        <table class="settings-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((u) => (
              <PersonRow key={u.user_id} u={u} />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export const Users = () => <PeopleTable active />;
export const DeactivatedUsers = () => <PeopleTable active={false} />;
