/**
 * One of the organization's custom profile fields, filled in by the person (PATCH /users/me/profile_data;
 * an empty value removes it). Each of Zulip's types gets its control: text, long text, a list's options,
 * a date, a link, people, an external account's username, pronouns.
 */
import { useEffect, useState } from "preact/hooks";
import { api } from "../../../api/http";
import type { ProfileField } from "../../../state/org-types";
import { users } from "../../../state/store";
import { PersonField, SaveError, SaveStatus, Select, TextField, useSaver } from "../controls";
import { fieldPeople, listOptions } from "./values";

export const FIELD = { SHORT_TEXT: 1, LONG_TEXT: 2, SELECT: 3, DATE: 4, URL: 5, USER: 6, EXTERNAL_ACCOUNT: 7, PRONOUNS: 8 } as const;

const save = (id: number, value: unknown) => api("PATCH", "/users/me/profile_data", { data: [{ id, value }] });

function PeopleFieldSetting({ field, value }: { field: ProfileField; value: string }) {
  const saver = useSaver();
  const stored = fieldPeople(value);
  const [chosen, setChosen] = useState(stored);
  useEffect(() => setChosen(fieldPeople(value)), [value]);
  const changed = chosen.join(",") !== stored.join(",");
  return (
    <form
      class="setting people-field-setting"
      onSubmit={(e) => {
        e.preventDefault();
        void saver.run(() => save(field.id, chosen.length ? chosen : "")).then((ok) => ok || setChosen(stored));
      }}
    >
      <span class="setting-label">{field.name}</span>
      <PersonField label={field.name} chosen={chosen} onChange={setChosen} />
      <div class="setting-row">
        <button type="submit" class="button" disabled={!changed || saver.state.kind === "saving"}>
          Save
        </button>
        <SaveStatus state={saver.state} />
      </div>
      {field.hint && <p class="setting-hint">{field.hint}</p>}
      <SaveError state={saver.state} />
    </form>
  );
}

function shownValue(field: ProfileField, value: string): string {
  if (field.type === FIELD.SELECT) return listOptions(field.field_data).find((o) => o.key === value)?.text ?? value;
  if (field.type === FIELD.USER) return fieldPeople(value).map((id) => users.value[id]?.full_name ?? "Unknown user").join(", ");
  return value;
}

export function ProfileFieldSetting({ field, value, editable }: { field: ProfileField; value: string; editable: boolean }) {
  if (!editable) {
    return (
      <div class="setting">
        <span class="setting-label">{field.name}</span>
        <p class="read-only-value">{shownValue(field, value) || "—"}</p>
        <p class="setting-hint">Only your organization's administrators may change this field.</p>
      </div>
    );
  }
  const hint = field.hint || undefined;
  switch (field.type) {
    case FIELD.SELECT: {
      const choices = [{ value: "", label: "—" }, ...listOptions(field.field_data).map((o) => ({ value: o.key, label: o.text }))];
      return <Select label={field.name} value={value} choices={choices} hint={hint} onSave={(v) => save(field.id, v)} />;
    }
    case FIELD.USER:
      return <PeopleFieldSetting field={field} value={value} />;
    case FIELD.LONG_TEXT:
      return <TextField label={field.name} value={value} multiline hint={hint} maxLength={500} onSave={(v) => save(field.id, v)} />;
    case FIELD.DATE:
      return <TextField label={field.name} value={value} type="date" hint={hint} onSave={(v) => save(field.id, v)} />;
    case FIELD.URL:
      return <TextField label={field.name} value={value} type="url" hint={hint} onSave={(v) => save(field.id, v)} />;
    default:
      // short text, pronouns, an external account's username
      return <TextField label={field.name} value={value} hint={hint} maxLength={50} onSave={(v) => save(field.id, v)} />;
  }
}
