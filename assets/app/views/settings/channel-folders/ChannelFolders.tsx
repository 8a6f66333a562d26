/**
 * Channel folders (Zulip 11's channel folders, as Parley implements them: create, rename, describe,
 * archive and unarchive, reorder). Administrators change them; everyone sees the list.
 */
import { useState } from "preact/hooks";
import { createChannelFolder, reorderChannelFolders, updateChannelFolder } from "../../../api/org";
import { canAdministerOrg } from "../../../state/permissions";
import type { ChannelFolder } from "../../../state/org-types";
import { state } from "../../../state/store";
import { FormActions, SaveError, movedIds, useId, useSaver } from "../controls";
import { ReadOnlyNote } from "../organization/fields";

function FolderForm({ folder, onDone }: { folder?: ChannelFolder; onDone?: () => void }) {
  const saver = useSaver();
  const id = useId("folder");
  const [name, setName] = useState(folder?.name ?? "");
  const [description, setDescription] = useState(folder?.description ?? "");
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!name.trim()) return saver.refuse("Enter a name for the folder.");
    const ok = await saver.run(() => (folder ? updateChannelFolder(folder.id, { name, description }) : createChannelFolder(name, description)));
    if (!ok) return;
    if (folder) return onDone?.();
    setName("");
    setDescription("");
  };
  return (
    <form class="settings-add-form" onSubmit={(e) => void submit(e)} aria-label={folder ? `Edit the folder ${folder.name}` : "Create a channel folder"}>
      {!folder && <h3>Create a channel folder</h3>}
      <div class="setting">
        <label for={`${id}-name`}>Name</label>
        <input id={`${id}-name`} type="text" value={name} maxLength={60} onInput={(e) => setName(e.currentTarget.value)} />
      </div>
      <div class="setting">
        <label for={`${id}-description`}>Description</label>
        <textarea id={`${id}-description`} rows={2} maxLength={1024} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </div>
      <FormActions saver={saver} submit={folder ? "Save" : "Create folder"} onCancel={folder ? onDone : undefined} />
    </form>
  );
}

function FolderRow({ f, index, list, editable }: { f: ChannelFolder; index: number; list: ChannelFolder[]; editable: boolean }) {
  const saver = useSaver();
  const [editing, setEditing] = useState(false);
  if (editing) {
    return (
      <li>
        <FolderForm folder={f} onDone={() => setEditing(false)} />
      </li>
    );
  }
  const move = (by: number) => void saver.run(() => reorderChannelFolders(movedIds(list, index, by)));
  const busy = saver.state.kind === "saving";
  return (
    <li class={f.is_archived ? "archived" : undefined}>
      <span>
        <strong>{f.name}</strong>
        {f.is_archived && <span class="muted-text"> (archived)</span>}
        {f.description && <span class="setting-hint"> — {f.description}</span>}
      </span>
      {editable && (
        <span class="row-actions">
          <button type="button" class="button" aria-label={`Move ${f.name} up`} disabled={index === 0 || busy} onClick={() => move(-1)}>
            ↑
          </button>
          <button type="button" class="button" aria-label={`Move ${f.name} down`} disabled={index === list.length - 1 || busy} onClick={() => move(1)}>
            ↓
          </button>
          <button type="button" class="button" aria-label={`Edit ${f.name}`} onClick={() => setEditing(true)}>
            Edit
          </button>
          <button type="button" class="button" disabled={busy} onClick={() => void saver.run(() => updateChannelFolder(f.id, { is_archived: !f.is_archived }))}>
            {f.is_archived ? "Unarchive" : "Archive"}
          </button>
        </span>
      )}
      <SaveError state={saver.state} />
    </li>
  );
}

export function ChannelFolders() {
  const editable = canAdministerOrg(state.value!);
  const list = Object.values(state.value!.channel_folders ?? {}).sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || a.id - b.id);
  return (
    <div class="settings-section">
      <p class="setting-hint">Folders group channels in the left sidebar and in Browse channels.</p>
      <ReadOnlyNote editable={editable} />
      {editable && <FolderForm />}
      <h3>Channel folders</h3>
      {list.length ? (
        <ol class="settings-list" aria-label="Channel folders, in order">
          {list.map((f, i) => (
            <FolderRow key={f.id} f={f} index={i} list={list} editable={editable} />
          ))}
        </ol>
      ) : (
        <p class="muted-text">No channel folders yet.</p>
      )}
    </div>
  );
}
