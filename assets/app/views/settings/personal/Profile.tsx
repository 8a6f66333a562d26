/**
 * Profile (Zulip's settings_account profile part): the person's name, avatar, and the organization's
 * custom profile fields. The name may be changed unless the organization disabled name changes
 * (administrators are exempt, as on the server).
 */
import { api } from "../../../api/http";
import { isAdmin } from "../../../state/permissions";
import { me, realm, state, users } from "../../../state/store";
import { TextField } from "../controls";

export const MAX_NAME_LENGTH = 100;

export function Profile() {
  const person = users.value[me.value];
  const locked = realm.value.name_changes_disabled && !isAdmin(state.value!);
  return (
    <div class="settings-section">
      <TextField
        label="Name"
        name="full_name"
        value={person?.full_name ?? ""}
        maxLength={MAX_NAME_LENGTH}
        autocomplete="name"
        disabled={locked}
        hint={locked ? "Your organization's administrators have turned off name changes." : undefined}
        onSave={(full_name) => api("PATCH", "/settings", { full_name })}
      />
    </div>
  );
}
