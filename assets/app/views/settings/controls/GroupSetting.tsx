/**
 * Zulip's group-based setting: who holds a permission, as one of the organization's role groups
 * ("Admins and moderators", a group id) or a set of people and groups (the anonymous group
 * `{direct_members, direct_subgroups}`). A set of exactly one group is saved as that group's id, as
 * Zulip's web app does.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { groups as groupsSignal } from "../../../state/store";
import type { GroupSetting as Value, UserGroup } from "../../../state/types";
import { PersonField } from "./PersonField";
import { SaveError, SaveStatus, useId, useSaver } from "./save";
import { ROLE_GROUPS, toSetting } from "./values";

/** Whether a value is one of the offered role groups (else it shows as people and groups). */
const roleGroupOf = (value: Value, offered: UserGroup[]) => (typeof value === "number" ? offered.find((g) => g.id === value) : undefined);

interface Props {
  label: ComponentChildren;
  value: Value;
  onSave(next: Value): Promise<unknown>;
  /** the role groups this setting may take (Zulip's allowed_system_groups); all by default */
  roles?: readonly string[];
  disabled?: boolean;
}

export function GroupSettingPicker({ label, value, onSave, roles, disabled }: Props) {
  const saver = useSaver();
  const id = useId("group-setting");
  const all = Object.values(groupsSignal.value);
  const offered = ROLE_GROUPS.filter((r) => !roles || roles.includes(r.name))
    .map((r) => ({ group: all.find((g) => g.is_system_group && g.name === r.name), label: r.label }))
    .filter((r): r is { group: UserGroup; label: string } => !!r.group);
  const named = all.filter((g) => !g.is_system_group).sort((a, b) => a.name.localeCompare(b.name));
  const current = roleGroupOf(value, offered.map((o) => o.group));
  const [custom, setCustom] = useState(!current);
  const initialMembers = typeof value === "number" ? [] : value.direct_members;
  const initialSubgroups = typeof value === "number" ? (current ? [] : [value]) : value.direct_subgroups;
  const [members, setMembers] = useState(initialMembers);
  const [subgroups, setSubgroups] = useState(initialSubgroups);
  const key = JSON.stringify(value);
  useEffect(() => {
    setCustom(!current);
    setMembers(initialMembers);
    setSubgroups(initialSubgroups);
  }, [key]);
  const busy = saver.state.kind === "saving";
  const toggleGroup = (gid: number, on: boolean) => setSubgroups(on ? [...subgroups, gid] : subgroups.filter((g) => g !== gid));
  const saveCustom = (e: Event) => {
    e.preventDefault();
    void saver.run(() => onSave(toSetting(members, subgroups)));
  };
  return (
    <div class="setting group-setting">
      <label for={id}>{label}</label>
      <div class="setting-row">
        <select
          id={id}
          value={custom ? "custom" : String(current?.id)}
          disabled={disabled || busy}
          aria-describedby={saver.state.kind === "error" ? `${id}-error` : undefined}
          onChange={(e) => {
            const v = e.currentTarget.value;
            if (v === "custom") return setCustom(true);
            setCustom(false);
            void saver.run(() => onSave(Number(v)));
          }}
        >
          {offered.map((o) => (
            <option key={o.group.id} value={String(o.group.id)}>
              {o.label}
            </option>
          ))}
          <option value="custom">Specific people and groups</option>
        </select>
        <SaveStatus state={saver.state} />
      </div>
      {custom && (
        <form class="custom-group-setting" onSubmit={saveCustom}>
          <PersonField label={`People for ${typeof label === "string" ? label : "this setting"}`} chosen={members} onChange={setMembers} />
          {(
            <fieldset class="group-choices">
              <legend>Groups</legend>
              {[...offered.map((o) => ({ id: o.group.id, name: o.label })), ...named].map((g) => (
                <label class="check" key={g.id}>
                  <input type="checkbox" checked={subgroups.includes(g.id)} disabled={disabled || busy} onChange={(e) => toggleGroup(g.id, e.currentTarget.checked)} />
                  {g.name}
                </label>
              ))}
            </fieldset>
          )}
          <button type="submit" class="button" disabled={disabled || busy}>
            Save
          </button>
        </form>
      )}
      <SaveError state={saver.state} id={`${id}-error`} />
    </div>
  );
}
