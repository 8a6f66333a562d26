/** One user group's settings: general (name, description, deactivate), members and subgroups, permissions. */
import { useState } from "preact/hooks";
import { changeGroupMembers, changeSubgroups, deactivateGroup, setGroupPermission, updateGroup } from "../../../api/settings-calls";
import { describeError } from "../../../api/http";
import type { GroupSection } from "../../../nav/hash";
import { hrefOf, navigate } from "../../../nav/router";
import { canAddGroupMembers, canJoinGroup, canLeaveGroup, canManageGroup, canRemoveGroupMembers } from "../../../state/permissions";
import { state } from "../../../state/store";
import type { UserGroupPermission } from "../../../state/types";
import { ConfirmDialog, openDialog } from "../../Dialog";
import { Avatar } from "../../people-bits";
import { AddPeopleForm, GroupSettingPicker, TextField } from "../controls";
import { ActionButton } from "../people/ActionButton";

const SECTIONS: { id: GroupSection; label: string }[] = [
  { id: "general", label: "General" },
  { id: "members", label: "Members" },
  { id: "permissions", label: "Permissions" },
];

const NO_EVERYONE = ["role:members", "role:fullmembers", "role:moderators", "role:administrators", "role:owners", "role:nobody"];
const PERMISSIONS: { name: UserGroupPermission; label: string; roles?: string[] }[] = [
  { name: "can_manage_group", label: "Who can administer this group", roles: NO_EVERYONE },
  { name: "can_add_members_group", label: "Who can add members to this group", roles: NO_EVERYONE },
  { name: "can_remove_members_group", label: "Who can remove members from this group", roles: NO_EVERYONE },
  { name: "can_join_group", label: "Who can join this group", roles: NO_EVERYONE },
  { name: "can_leave_group", label: "Who can leave this group" },
  { name: "can_mention_group", label: "Who can mention this group" },
];

function General({ groupId }: { groupId: number }) {
  const s = state.value!;
  const g = s.groups[groupId]!;
  const manage = canManageGroup(s, groupId);
  const confirm = () =>
    openDialog(() => (
      <ConfirmDialog title={`Deactivate ${g.name}?`} confirmLabel="Deactivate" danger onConfirm={() => deactivateGroup(groupId).then(() => navigate({ kind: "groups", tab: "all" }))}>
        <p>A deactivated group can no longer be mentioned or given permissions.</p>
      </ConfirmDialog>
    ));
  if (!manage) {
    return (
      <dl class="settings-facts">
        <dt>Description</dt>
        <dd>{g.description || "No description."}</dd>
      </dl>
    );
  }
  return (
    <div class="settings-form">
      <TextField label="Group name" name="group-name" value={g.name} maxLength={100} onSave={(v) => updateGroup(groupId, { name: v })} check={(v) => (v.trim() ? null : "A group needs a name.")} />
      <TextField label="Description" name="group-description" multiline value={g.description ?? ""} onSave={(v) => updateGroup(groupId, { description: v })} />
      <div class="settings-danger">
        <button type="button" class="button danger" onClick={confirm}>
          Deactivate group
        </button>
      </div>
    </div>
  );
}

function AddSubgroup({ groupId }: { groupId: number }) {
  const s = state.value!;
  const g = s.groups[groupId]!;
  const [pick, setPick] = useState("");
  const [error, setError] = useState<string | null>(null);
  const candidates = Object.values(s.groups).filter((x) => !x.is_system_group && x.id !== groupId && !g.direct_subgroup_ids.includes(x.id));
  if (!candidates.length) return null;
  const submit = (e: Event) => {
    e.preventDefault();
    if (!pick) return setError("Choose a group first.");
    setError(null);
    changeSubgroups(groupId, [Number(pick)], [])
      .then(() => setPick(""))
      .catch((err) => setError(describeError(err)));
  };
  return (
    <form class="setting setting-row" onSubmit={submit}>
      <label for="add-subgroup">Add a subgroup</label>
      <select id="add-subgroup" value={pick} onChange={(e) => setPick(e.currentTarget.value)}>
        <option value="">Choose a group</option>
        {candidates.map((c) => (
          <option key={c.id} value={String(c.id)}>
            {c.name}
          </option>
        ))}
      </select>
      <button type="submit" class="button">
        Add
      </button>
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function Members({ groupId }: { groupId: number }) {
  const s = state.value!;
  const g = s.groups[groupId]!;
  const mayRemove = canRemoveGroupMembers(s, groupId);
  const isMember = g.members.includes(s.me);
  return (
    <div class="settings-form">
      {!isMember && canJoinGroup(s, groupId) && <ActionButton label="Join group" kind="primary" run={() => changeGroupMembers(groupId, [s.me], [])} />}
      {isMember && canLeaveGroup(s, groupId) && <ActionButton label="Leave group" run={() => changeGroupMembers(groupId, [], [s.me])} />}
      {canAddGroupMembers(s, groupId) && <AddPeopleForm label="Add members" add={(ids) => changeGroupMembers(groupId, ids, [])} />}
      <ul class="settings-people" aria-label="Members">
        {g.members.map((id) => s.users[id]).filter(Boolean).map((u) => (
          <li key={u!.user_id} class="settings-person">
            <Avatar userId={u!.user_id} size={24} />
            <span class="settings-person-name">{u!.full_name}</span>
            {mayRemove && u!.user_id !== s.me && <ActionButton label="Remove" aria={`Remove ${u!.full_name}`} run={() => changeGroupMembers(groupId, [], [u!.user_id])} />}
          </li>
        ))}
      </ul>
      <h3 class="settings-subhead">Subgroups</h3>
      {canAddGroupMembers(s, groupId) && <AddSubgroup groupId={groupId} />}
      {g.direct_subgroup_ids.length ? (
        <ul class="settings-people" aria-label="Subgroups">
          {g.direct_subgroup_ids.map((id) => s.groups[id]).filter(Boolean).map((sub) => (
            <li key={sub!.id} class="settings-person">
              <a href={hrefOf({ kind: "groups", tab: "all", group_id: sub!.id, section: "general" })}>{sub!.name}</a>
              {mayRemove && <ActionButton label="Remove" aria={`Remove subgroup ${sub!.name}`} run={() => changeSubgroups(groupId, [], [sub!.id])} />}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted-text">No subgroups.</p>
      )}
    </div>
  );
}

function Permissions({ groupId }: { groupId: number }) {
  const s = state.value!;
  const g = s.groups[groupId]!;
  const manage = canManageGroup(s, groupId);
  return (
    <div class="settings-form">
      {PERMISSIONS.filter((p) => g.settings?.[p.name] !== undefined).map((p) => (
        <GroupSettingPicker key={p.name} label={p.label} value={g.settings![p.name]!} roles={p.roles} disabled={!manage} onSave={(v) => setGroupPermission(groupId, p.name, v)} />
      ))}
      {!manage && <p class="setting-hint">Only this group's administrators can change who may do what.</p>}
    </div>
  );
}

export function GroupSettings({ groupId, section }: { groupId: number; section: GroupSection }) {
  const g = state.value!.groups[groupId];
  if (!g || g.is_system_group) return <p class="muted-text">This group does not exist, or was deactivated.</p>;
  return (
    <>
      <h2 class="group-title">{g.name}</h2>
      <nav class="tabs" aria-label="Group settings">
        {SECTIONS.map((t) => (
          <a key={t.id} class="tab" href={hrefOf({ kind: "groups", tab: "all", group_id: groupId, section: t.id })} aria-current={t.id === section ? "page" : undefined}>
            {t.label}
          </a>
        ))}
      </nav>
      {section === "general" && <General groupId={groupId} />}
      {section === "members" && <Members groupId={groupId} />}
      {section === "permissions" && <Permissions groupId={groupId} />}
    </>
  );
}
