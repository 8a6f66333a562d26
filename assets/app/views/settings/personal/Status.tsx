/**
 * The person's status (Zulip's set-status modal, as a section): an emoji and a short text shown beside
 * their name, cleared together, and whether they appear away. Saved with POST /users/me/status; the
 * user_status event brings it back to every page.
 */
import { useEffect, useState } from "preact/hooks";
import { api } from "../../../api/http";
import type { EmojiEntry } from "../../../lib/emoji-match";
import { me, userStatus } from "../../../state/store";
import { EmojiGlyph } from "../../EmojiGlyph";
import { openEmojiPicker } from "../../emoji-picker-host";
import { SaveError, SaveStatus, Toggle, useId, useSaver } from "../controls";

/** Zulip's longest status text. */
export const MAX_STATUS_LENGTH = 60;

type Emoji = Pick<EmojiEntry, "name" | "code" | "reaction_type">;

export function Status() {
  const current = userStatus.value[me.value] ?? {};
  const saver = useSaver();
  const id = useId("status");
  const stored: Emoji | null = current.emoji_name ? { name: current.emoji_name, code: current.emoji_code ?? "", reaction_type: (current.reaction_type ?? "unicode_emoji") as Emoji["reaction_type"] } : null;
  const [text, setText] = useState(current.status_text ?? "");
  const [emoji, setEmoji] = useState<Emoji | null>(stored);
  useEffect(() => {
    setText(current.status_text ?? "");
    setEmoji(stored);
  }, [current.status_text, current.emoji_name, current.emoji_code]);
  const changed = text !== (current.status_text ?? "") || emoji?.name !== stored?.name;
  const busy = saver.state.kind === "saving";
  const save = (e: Event) => {
    e.preventDefault();
    const emojiFields = emoji ? { emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.reaction_type } : { emoji_name: "" };
    void saver.run(() => api("POST", "/users/me/status", { status_text: text.trim(), ...emojiFields }));
  };
  const clear = () => void saver.run(() => api("POST", "/users/me/status", { status_text: "", emoji_name: "" }));
  return (
    <div class="settings-section">
      <form class="setting status-setting" onSubmit={save}>
        <label for={id}>Your status</label>
        <div class="setting-row">
          <button
            type="button"
            class="button subtle status-emoji-button"
            aria-label={emoji ? `Status emoji: ${emoji.name}. Choose another` : "Choose a status emoji"}
            onClick={(e) => openEmojiPicker({ anchor: e.currentTarget, label: "Choose a status emoji", onPick: (picked) => setEmoji(picked) })}
          >
            {emoji ? <EmojiGlyph emoji={emoji} /> : "☺"}
          </button>
          <input id={id} type="text" value={text} maxLength={MAX_STATUS_LENGTH} placeholder="In a meeting" disabled={busy} onInput={(e) => setText(e.currentTarget.value)} />
          <button type="submit" class="button primary" disabled={busy || !changed}>
            Save
          </button>
          <button type="button" class="button subtle" disabled={busy || (!current.status_text && !current.emoji_name)} onClick={clear}>
            Clear status
          </button>
          <SaveStatus state={saver.state} />
        </div>
        <SaveError state={saver.state} />
      </form>
      <Toggle label="Appear away to others" checked={!!current.away} onSave={(away) => api("POST", "/users/me/status", { away })} />
    </div>
  );
}
