/**
 * Profile (Zulip's settings_account profile part): the person's name, avatar, and the organization's
 * custom profile fields (pronouns among them). The name and the avatar may be changed unless the
 * organization turned that off (administrators are exempt, as on the server); a field the organization
 * made not editable by its people shows its value only.
 */
import { api } from "../../../api/http";
import { isAdmin } from "../../../state/permissions";
import { me, realm, state, users } from "../../../state/store";
import { TextField } from "../controls";
import { AvatarSetting } from "./AvatarSetting";
import { ProfileFieldSetting } from "./ProfileFieldSetting";

export const MAX_NAME_LENGTH = 100;

export function Profile() {
  const s = state.value!;
  const person = users.value[me.value];
  const admin = isAdmin(s);
  const fields = s.profile_fields ?? [];
  const nameLocked = realm.value.name_changes_disabled && !admin;
  return (
    <div class="settings-section">
      <TextField
        label="Name"
        name="full_name"
        value={person?.full_name ?? ""}
        maxLength={MAX_NAME_LENGTH}
        autocomplete="name"
        disabled={nameLocked}
        hint={nameLocked ? "Your organization's administrators have turned off name changes." : undefined}
        onSave={(full_name) => api("PATCH", "/settings", { full_name })}
      />
      <AvatarSetting locked={realm.value.avatar_changes_disabled && !admin} />
      {fields.length > 0 && (
        <>
          <h3>About you</h3>
          {fields.map((f) => (
            <ProfileFieldSetting key={f.id} field={f} value={person?.profile_data?.[f.id]?.value ?? ""} editable={f.editable_by_user || admin} />
          ))}
        </>
      )}
    </div>
  );
}
