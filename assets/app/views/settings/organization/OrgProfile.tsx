/**
 * Organization profile (Zulip's settings_org.ts "organization-profile"): name, description, icon and
 * language. Administrators change them; everyone else sees them.
 */
import { useRef } from "preact/hooks";
import { removeOrgIcon, uploadOrgIcon } from "../../../api/org";
import { canAdministerOrg } from "../../../state/permissions";
import { org, state } from "../../../state/store";
import { SaveError, SaveStatus, useSaver } from "../controls";
import { OrgFieldGroup, ReadOnlyNote, type OrgField } from "./fields";

/** The languages Zulip's web app is translated into that an organization commonly picks (its default_language). */
export const LANGUAGES = [
  ["en", "English"],
  ["de", "Deutsch"],
  ["es", "Español"],
  ["fr", "Français"],
  ["it", "Italiano"],
  ["nl", "Nederlands"],
  ["pl", "Polski"],
  ["pt", "Português"],
  ["ru", "Русский"],
  ["sv", "Svenska"],
  ["tr", "Türkçe"],
  ["uk", "Українська"],
  ["ja", "日本語"],
  ["ko", "한국어"],
  ["zh-hans", "简体中文"],
] as const;

/** Zulip's organization types (Realm.ORG_TYPES), in its order. */
const ORG_TYPES = [
  [0, "Unspecified"],
  [10, "Business"],
  [20, "Open-source project"],
  [30, "Education (non-profit)"],
  [35, "Education (for-profit)"],
  [40, "Research"],
  [50, "Event or conference"],
  [60, "Non-profit (registered)"],
  [70, "Government"],
  [80, "Political group"],
  [90, "Community"],
  [100, "Personal"],
  [1000, "Other"],
] as const;

const PROFILE: OrgField[] = [
  { kind: "text", name: "name", label: "Organization name", maxLength: 40 },
  { kind: "select", name: "org_type", label: "Organization type", choices: ORG_TYPES.map(([value, label]) => ({ value, label })) },
  { kind: "text", name: "description", label: "Organization description", multiline: true, maxLength: 1000 },
];

function IconField({ editable }: { editable: boolean }) {
  const saver = useSaver();
  const input = useRef<HTMLInputElement>(null);
  const s = org.value.settings;
  const uploaded = s.icon_source === "U";
  return (
    <div class="setting icon-setting">
      <span class="setting-label" id="org-icon-label">
        Organization icon
      </span>
      <div class="setting-row">
        <img class="org-icon" src={String(s.icon_url ?? "")} alt="The organization's icon" width={64} height={64} />
        {editable && (
          <>
            <input
              ref={input}
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp"
              class="visually-hidden"
              id="org-icon-file"
              aria-labelledby="org-icon-label"
              onChange={(e) => {
                const file = e.currentTarget.files?.[0];
                e.currentTarget.value = "";
                if (file) void saver.run(() => uploadOrgIcon(file));
              }}
            />
            <button type="button" class="button" disabled={saver.state.kind === "saving"} onClick={() => input.current?.click()}>
              Upload icon
            </button>
            {uploaded && (
              <button type="button" class="button" disabled={saver.state.kind === "saving"} onClick={() => void saver.run(removeOrgIcon)}>
                Remove icon
              </button>
            )}
          </>
        )}
        <SaveStatus state={saver.state} />
      </div>
      <SaveError state={saver.state} />
    </div>
  );
}

export function OrgProfile() {
  const editable = canAdministerOrg(state.value!);
  return (
    <div class="settings-section">
      <ReadOnlyNote editable={editable} />
      <OrgFieldGroup title="Profile" fields={PROFILE}>
        <IconField editable={editable} />
      </OrgFieldGroup>
      <OrgFieldGroup
        title="Language"
        fields={[{ kind: "select", name: "default_language", label: "Language for automated messages and invitation emails", choices: LANGUAGES.map(([value, label]) => ({ value, label })) }]}
      />
    </div>
  );
}
