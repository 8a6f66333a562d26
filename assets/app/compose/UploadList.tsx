/** The files being uploaded from the compose box: a progress bar each, cancel, and what went wrong. */
import { CloseIcon } from "../views/icons";
import { dismissUpload, uploads } from "./uploads";

const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`);

export function UploadList() {
  const list = uploads.value;
  if (!list.length) return null;
  return (
    <ul class="upload-list" aria-label="Uploads">
      {list.map((u) => (
        <li key={u.id} class={`upload-row ${u.error ? "failed" : ""}`}>
          {u.error ? (
            <span class="upload-error" role="alert">
              {u.error}
            </span>
          ) : (
            <>
              <span class="upload-name">{u.name}</span>
              <progress max={u.size} value={u.loaded} aria-label={`Uploading ${u.name}`} />
              <span class="upload-size">
                {size(u.loaded)} of {size(u.size)}
              </span>
            </>
          )}
          <button type="button" class="icon-button" aria-label={u.error ? `Dismiss` : `Cancel uploading ${u.name}`} title={u.error ? "Dismiss" : "Cancel"} onClick={() => (u.error ? dismissUpload(u.id) : u.cancel())}>
            <CloseIcon size={14} />
          </button>
        </li>
      ))}
    </ul>
  );
}
