/**
 * The person's avatar: upload a new one (POST /users/me/avatar, multipart) or go back to the default
 * (DELETE). The picture shown is the store's, which the server's realm_user event updates here and in
 * everyone's pages.
 */
import { api, apiUpload } from "../../../api/http";
import { me, realm, state } from "../../../state/store";
import { Avatar } from "../../people-bits";
import { SaveError, SaveStatus, useId, useSaver } from "../controls";

export function AvatarSetting({ locked }: { locked: boolean }) {
  const saver = useSaver();
  const id = useId("avatar");
  const busy = saver.state.kind === "saving";
  const uploaded = state.value!.avatar_source === "U";
  const maxMib = realm.value.max_avatar_file_size_mib;
  const upload = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = "";
    if (!file) return;
    const form = new FormData();
    form.append("file", file, file.name);
    void saver.run(() => apiUpload("/users/me/avatar", form));
  };
  return (
    <div class="setting avatar-setting">
      <span class="setting-label">Avatar</span>
      <div class="setting-row">
        <Avatar userId={me.value} size={96} />
        {locked ? (
          <p class="setting-hint">Your organization's administrators have turned off avatar changes.</p>
        ) : (
          <div class="avatar-actions">
            <input id={id} class="visually-hidden" type="file" accept="image/png,image/jpeg,image/gif,image/webp" disabled={busy} onChange={(e) => upload(e.currentTarget)} />
            <label class="button" for={id}>
              Upload a new avatar
            </label>
            {uploaded && (
              <button type="button" class="button subtle" disabled={busy} onClick={() => void saver.run(() => api("DELETE", "/users/me/avatar"))}>
                Delete avatar
              </button>
            )}
            <SaveStatus state={saver.state} />
          </div>
        )}
      </div>
      {!locked && <p class="setting-hint">A square PNG, JPEG, GIF or WebP picture works best (up to {maxMib} MiB).</p>}
      <SaveError state={saver.state} />
    </div>
  );
}
