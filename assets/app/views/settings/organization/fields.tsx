/**
 * The organization's settings drawn from a table (Zulip's settings_org.ts does the same from its
 * templates): each row names a PATCH /realm setting and how it is shown. A control is enabled only for
 * those the server lets change it (state/permissions.ts); others see the value read-only. Every save
 * goes through PATCH /realm and the control shows what the realm event brings back.
 */
import type { ComponentChildren } from "preact";
import { updateOrg } from "../../../api/org";
import { canEditOrgSetting, OWNER_ONLY_ORG_SETTINGS } from "../../../state/permissions";
import { channels, org, state } from "../../../state/store";
import type { GroupSetting, State } from "../../../state/types";
import { GroupSettingPicker, Select, TextField, TimeLimit, Toggle, type Choice } from "../controls";

export type OrgField =
  /** `unavailable`: why the organization cannot turn it on now (shown, and the switch is off) */
  | { kind: "toggle"; name: string; label: string; hint?: string; unavailable?: (s: State) => string | null }
  | { kind: "select"; name: string; label: string; choices: readonly Choice<string | number>[]; hint?: string }
  | { kind: "group"; name: string; label: string; roles?: readonly string[] }
  | { kind: "limit"; name: string; label: string; noneLabel?: string }
  | { kind: "text"; name: string; label: string; multiline?: boolean; maxLength?: number; hint?: string }
  /** a whole number (days, …), or for message_retention_days -1 shown as "forever" */
  | { kind: "number"; name: string; label: string; hint?: string; unlimitedWord?: string }
  /** an announcement channel, or none (-1) */
  | { kind: "channel"; name: string; label: string };

/** The role groups a setting may take (the server's REALM_GROUP_SETTING_CONFIGS). */
export const WITHOUT_EVERYONE = ["role:members", "role:fullmembers", "role:moderators", "role:administrators", "role:owners", "role:nobody"] as const;
export const WITHOUT_EVERYONE_OR_NOBODY = WITHOUT_EVERYONE.filter((r) => r !== "role:nobody");

const save = (name: string, value: unknown) => updateOrg({ [name]: value });

function hintFor(name: string, hint?: string): string | undefined {
  const s = state.value!;
  if (OWNER_ONLY_ORG_SETTINGS.has(name) && !canEditOrgSetting(s, name)) return [hint, "Only organization owners can change this setting."].filter(Boolean).join(" ");
  return hint;
}

function checkWhole(text: string, unlimitedWord?: string): string | null {
  if (unlimitedWord && text.trim().toLowerCase() === unlimitedWord) return null;
  return /^\d+$/.test(text.trim()) ? null : unlimitedWord ? `Enter a whole number of days, or "${unlimitedWord}".` : "Enter a whole number.";
}

function Field({ f }: { f: OrgField }) {
  const s = state.value!;
  const value = org.value.settings[f.name];
  if (value === undefined) return null;
  const disabled = !canEditOrgSetting(s, f.name);
  const hint = hintFor(f.name, "hint" in f ? f.hint : undefined);
  switch (f.kind) {
    case "toggle": {
      const why = f.unavailable?.(s);
      const shownHint = [hint, why].filter(Boolean).join(" ") || undefined;
      return <Toggle name={f.name} label={f.label} checked={!!value} hint={shownHint} disabled={disabled || (!!why && !value)} onSave={(v) => save(f.name, v)} />;
    }
    case "select":
      return <Select name={f.name} label={f.label} value={value as string | number} choices={f.choices} hint={hint} disabled={disabled} onSave={(v) => save(f.name, v)} />;
    case "group":
      return <GroupSettingPicker label={f.label} value={value as GroupSetting} roles={f.roles} disabled={disabled} onSave={(next) => save(f.name, { new: next, old: value })} />;
    case "limit":
      return <TimeLimit label={f.label} value={value as number | null} noneLabel={f.noneLabel} disabled={disabled} onSave={(v) => save(f.name, v === null ? "unlimited" : v)} />;
    case "text":
      return <TextField name={f.name} label={f.label} value={String(value)} multiline={f.multiline} maxLength={f.maxLength} hint={hint} disabled={disabled} onSave={(v) => save(f.name, v)} />;
    case "number": {
      const shown = f.unlimitedWord && value === -1 ? f.unlimitedWord : String(value);
      const toWire = (t: string) => (f.unlimitedWord && t.trim().toLowerCase() === f.unlimitedWord ? "unlimited" : Number(t.trim()));
      return <TextField name={f.name} label={f.label} value={shown} hint={hint} disabled={disabled} check={(t) => checkWhole(t, f.unlimitedWord)} onSave={(t) => save(f.name, toWire(t))} />;
    }
    case "channel": {
      const choices = [{ value: -1, label: "Disabled" }, ...Object.values(channels.value).filter((c) => !c.is_archived).sort((a, b) => a.name.localeCompare(b.name)).map((c) => ({ value: c.stream_id, label: `#${c.name}` }))];
      return <Select name={f.name} label={f.label} value={value as number} choices={choices} disabled={disabled} onSave={(v) => save(f.name, v)} />;
    }
  }
}

/** A titled group of settings. */
export function OrgFieldGroup({ title, fields, children }: { title: string; fields: readonly OrgField[]; children?: ComponentChildren }) {
  return (
    <section class="settings-group" aria-label={title}>
      <h3>{title}</h3>
      {fields.map((f) => (
        <Field key={f.name} f={f} />
      ))}
      {children}
    </section>
  );
}

/** The line non-administrators see above settings they can only read. */
export function ReadOnlyNote({ editable, who = "administrators" }: { editable: boolean; who?: string }) {
  return editable ? null : <p class="setting-hint read-only-note">Only organization {who} can change these settings.</p>;
}
