/**
 * Custom profile fields (Zulip's settings_profile_fields.ts): the fields every profile shows, in order.
 * Administrators create them (with a select field's options, or an external account's kind), rename
 * them, change their hint, reorder and delete them; everyone sees the list.
 */
import { useState } from "preact/hooks";
import { addProfileField, deleteProfileField, editProfileField, reorderProfileFields } from "../../../api/org";
import { canAdministerOrg } from "../../../state/permissions";
import type { ProfileField } from "../../../state/org-types";
import { state } from "../../../state/store";
import { FormActions, SaveError, SaveStatus, movedIds, useId, useSaver } from "../controls";
import { ReadOnlyNote } from "../organization/fields";
import { selectOptions } from "./field-data";

/** The field types Parley supports (its FIELD_TYPES), with Zulip's names. */
export const FIELD_TYPES = [
  { id: 1, name: "Text (short)" },
  { id: 2, name: "Text (long)" },
  { id: 3, name: "List of options" },
  { id: 4, name: "Date" },
  { id: 5, name: "Link" },
  { id: 6, name: "Users" },
  { id: 7, name: "External account" },
  { id: 8, name: "Pronouns" },
] as const;
const SELECT = 3;
const EXTERNAL = 7;

const typeName = (type: number) => FIELD_TYPES.find((t) => t.id === type)?.name ?? "Unknown type";

function AddField() {
  const saver = useSaver();
  const id = useId("field");
  const [name, setName] = useState("");
  const [hint, setHint] = useState("");
  const [type, setType] = useState(1);
  const [options, setOptions] = useState("");
  const [account, setAccount] = useState("github");
  const submit = async (e: Event) => {
    e.preventDefault();
    const field_data = type === SELECT ? selectOptions(options) : type === EXTERNAL ? { subtype: account } : undefined;
    if (await saver.run(() => addProfileField({ name, hint, field_type: type, field_data }))) {
      setName("");
      setHint("");
      setOptions("");
    }
  };
  return (
    <form class="settings-add-form" onSubmit={(e) => void submit(e)} aria-label="Add a custom profile field">
      <h3>Add a custom profile field</h3>
      <div class="setting">
        <label for={`${id}-type`}>Type</label>
        <select id={`${id}-type`} value={String(type)} onChange={(e) => setType(Number(e.currentTarget.value))}>
          {FIELD_TYPES.map((t) => (
            <option key={t.id} value={String(t.id)}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      {type !== EXTERNAL && (
        <div class="setting">
          <label for={`${id}-name`}>Label</label>
          <input id={`${id}-name`} type="text" value={name} maxLength={40} onInput={(e) => setName(e.currentTarget.value)} />
        </div>
      )}
      <div class="setting">
        <label for={`${id}-hint`}>Hint (optional)</label>
        <input id={`${id}-hint`} type="text" value={hint} maxLength={80} onInput={(e) => setHint(e.currentTarget.value)} />
      </div>
      {type === SELECT && (
        <div class="setting">
          <label for={`${id}-options`}>Options, one a line</label>
          <textarea id={`${id}-options`} rows={4} value={options} onInput={(e) => setOptions(e.currentTarget.value)} />
        </div>
      )}
      {type === EXTERNAL && (
        <div class="setting">
          <label for={`${id}-account`}>Account</label>
          <select id={`${id}-account`} value={account} onChange={(e) => setAccount(e.currentTarget.value)}>
            <option value="github">GitHub</option>
            <option value="twitter">Twitter</option>
          </select>
        </div>
      )}
      <div class="setting-row">
        <button type="submit" class="button primary" disabled={saver.state.kind === "saving"}>
          Add field
        </button>
        <SaveStatus state={saver.state} />
      </div>
      <SaveError state={saver.state} />
    </form>
  );
}

function EditField({ f, onDone }: { f: ProfileField; onDone(): void }) {
  const saver = useSaver();
  const id = useId("field-edit");
  const [name, setName] = useState(f.name);
  const [hint, setHint] = useState(f.hint);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (await saver.run(() => editProfileField(f.id, { name, hint }))) onDone();
  };
  return (
    <form class="settings-add-form" onSubmit={(e) => void submit(e)} aria-label={`Edit the field ${f.name}`}>
      <div class="setting">
        <label for={`${id}-name`}>Label</label>
        <input id={`${id}-name`} type="text" value={name} maxLength={40} onInput={(e) => setName(e.currentTarget.value)} />
      </div>
      <div class="setting">
        <label for={`${id}-hint`}>Hint</label>
        <input id={`${id}-hint`} type="text" value={hint} maxLength={80} onInput={(e) => setHint(e.currentTarget.value)} />
      </div>
      <FormActions saver={saver} submit="Save" onCancel={onDone} />
    </form>
  );
}

function FieldRow({ f, index, list, editable }: { f: ProfileField; index: number; list: ProfileField[]; editable: boolean }) {
  const saver = useSaver();
  const [editing, setEditing] = useState(false);
  if (editing) {
    return (
      <li>
        <EditField f={f} onDone={() => setEditing(false)} />
      </li>
    );
  }
  const move = (by: number) => void saver.run(() => reorderProfileFields(movedIds(list, index, by)));
  return (
    <li>
      <span>
        <strong>{f.name}</strong> <span class="muted-text">({typeName(f.type)})</span>
        {f.hint && <span class="setting-hint"> — {f.hint}</span>}
      </span>
      {editable && (
        <span class="row-actions">
          <button type="button" class="button" aria-label={`Move ${f.name} up`} disabled={index === 0} onClick={() => move(-1)}>
            ↑
          </button>
          <button type="button" class="button" aria-label={`Move ${f.name} down`} disabled={index === list.length - 1} onClick={() => move(1)}>
            ↓
          </button>
          <button type="button" class="button" aria-label={`Edit ${f.name}`} onClick={() => setEditing(true)}>
            Edit
          </button>
          <button type="button" class="button danger" aria-label={`Delete ${f.name}`} disabled={saver.state.kind === "saving"} onClick={() => void saver.run(() => deleteProfileField(f.id))}>
            Delete
          </button>
        </span>
      )}
      <SaveError state={saver.state} />
    </li>
  );
}

export function ProfileFields() {
  const editable = canAdministerOrg(state.value!);
  const list = [...(state.value!.profile_fields ?? [])].sort((a, b) => a.order - b.order);
  return (
    <div class="settings-section">
      <ReadOnlyNote editable={editable} />
      {editable && <AddField />}
      <h3>Custom profile fields</h3>
      {list.length ? (
        <ol class="settings-list" aria-label="Custom profile fields, in order">
          {list.map((f, i) => (
            <FieldRow key={f.id} f={f} index={i} list={list} editable={editable} />
          ))}
        </ol>
      ) : (
        <p class="muted-text">No custom profile fields yet.</p>
      )}
    </div>
  );
}
