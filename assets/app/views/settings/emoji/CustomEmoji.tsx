/**
 * Custom emoji (Zulip's settings_emoji.ts): the organization's emoji with who added them, an upload
 * form for those in can_add_custom_emoji_group, and Delete for administrators and each emoji's author.
 * The list is the store's, so an emoji added or deleted anywhere shows here at once.
 */
import { useState } from "preact/hooks";
import { addCustomEmoji, deleteCustomEmoji } from "../../../api/org";
import { canAddEmoji, canDeleteEmoji } from "../../../state/permissions";
import { realmEmoji, state, users } from "../../../state/store";
import type { RealmEmoji } from "../../../state/types";
import { SaveError, SaveStatus, useId, useSaver } from "../controls";
import { emojiNameProblem } from "./emoji-name";

function AddEmoji() {
  const saver = useSaver();
  const id = useId("emoji");
  const [name, setName] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [formKey, setFormKey] = useState(0);
  const submit = async (e: Event) => {
    e.preventDefault();
    const problem = emojiNameProblem(name) ?? (file ? null : "Choose an image for the emoji.");
    if (problem) return saver.refuse(problem);
    if (await saver.run(() => addCustomEmoji(name.trim().toLowerCase().replace(/ /g, "_"), file!))) {
      setName("");
      setFile(null);
      setFormKey(formKey + 1);
    }
  };
  return (
    <form class="settings-add-form" key={formKey} onSubmit={(e) => void submit(e)} aria-label="Add a custom emoji">
      <h3>Add a custom emoji</h3>
      <div class="setting">
        <label for={`${id}-name`}>Emoji name</label>
        <input id={`${id}-name`} type="text" value={name} maxLength={60} placeholder="party_parrot" onInput={(e) => setName(e.currentTarget.value)} />
      </div>
      <div class="setting">
        <label for={`${id}-file`}>Image (PNG, JPEG, GIF or WebP)</label>
        <input id={`${id}-file`} type="file" accept="image/png,image/jpeg,image/gif,image/webp" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
      </div>
      <div class="setting-row">
        <button type="submit" class="button primary" disabled={saver.state.kind === "saving"}>
          Add emoji
        </button>
        <SaveStatus state={saver.state} />
      </div>
      <SaveError state={saver.state} />
    </form>
  );
}

function EmojiRow({ emoji }: { emoji: RealmEmoji }) {
  const saver = useSaver();
  const author = emoji.author_id != null ? users.value[emoji.author_id]?.full_name : undefined;
  return (
    <li class="emoji-row">
      <img src={emoji.source_url} alt="" width={24} height={24} loading="lazy" />
      <span class="emoji-name">:{emoji.name}:</span>
      <span class="muted-text">{author ? `added by ${author}` : "author unknown"}</span>
      {canDeleteEmoji(state.value!, emoji) && (
        <button type="button" class="button danger" aria-label={`Delete :${emoji.name}:`} disabled={saver.state.kind === "saving"} onClick={() => void saver.run(() => deleteCustomEmoji(emoji.name))}>
          Delete
        </button>
      )}
      <SaveError state={saver.state} />
    </li>
  );
}

export function CustomEmoji() {
  const list = Object.values(realmEmoji.value)
    .filter((e) => !e.deactivated)
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <div class="settings-section">
      {canAddEmoji(state.value!) ? <AddEmoji /> : <p class="setting-hint">Your organization's settings do not let you add custom emoji.</p>}
      <h3>The organization's emoji</h3>
      {list.length ? (
        <ul class="settings-list" aria-label="Custom emoji">
          {list.map((e) => (
            <EmojiRow key={e.id} emoji={e} />
          ))}
        </ul>
      ) : (
        <p class="muted-text">No custom emoji yet.</p>
      )}
    </div>
  );
}
