/**
 * Which message is being edited in place (one at a time, as in Zulip), and with what focus. The editor
 * itself is loaded the first time someone edits (it is not needed to read).
 */
import { signal } from "@preact/signals";
import { stopEditing } from "./editing-state";
import { useEffect } from "preact/hooks";
import type { Message } from "../state/types";

export { editing, startEditing, stopEditing } from "./editing-state";

const editorModule = signal<typeof import("./MessageEditor") | null>(null);

export function Editor({ m }: { m: Message }) {
  const mod = editorModule.value;
  useEffect(() => {
    if (!mod) import("./MessageEditor").then((x) => (editorModule.value = x), stopEditing);
  }, []);
  return mod ? <mod.MessageEditor m={m} /> : <div class="message-editor editor-loading">Opening the editor…</div>;
}
