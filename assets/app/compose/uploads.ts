/**
 * Uploads from the compose box (its button, a drop on the message view, a paste): each file shows a
 * progress bar and can be cancelled; while it goes, `[Uploading name…]()` stands where the cursor was,
 * and becomes the file's `[name](url)` link once the server has it (an image link shows as a thumbnail
 * once sent). Files over the server's limit are refused before sending. The sending code loads on first use.
 */
import { signal } from "@preact/signals";
import { describeError } from "../api/http";
import { realm } from "../state/store";
import { saveDraftSoon } from "./drafts";
import { compose, setContent } from "./state";

export interface Upload {
  id: number;
  name: string;
  size: number;
  loaded: number;
  /** set when it failed (the row stays until dismissed) */
  error?: string;
  cancel(): void;
}

export const uploads = signal<Upload[]>([]);
let counter = 0;

const change = (id: number, patch: Partial<Upload>) => (uploads.value = uploads.value.map((u) => (u.id === id ? { ...u, ...patch } : u)));
export const dismissUpload = (id: number) => (uploads.value = uploads.value.filter((u) => u.id !== id));

const mib = (bytes: number) => bytes / (1024 * 1024);

/** Markdown link text: brackets in a file name would end the link early. */
const linkText = (name: string) => name.replace(/[[\]]/g, (c) => `\\${c}`);

/** Replaces the placeholder; a cursor after it in the text area moves with the text it was in. */
function replaceText(from: string, to: string): void {
  const text = compose.content.peek();
  const at = text.indexOf(from);
  if (at < 0) return;
  const el = document.querySelector<HTMLTextAreaElement>(".compose-text");
  const cursor = el && document.activeElement === el ? el.selectionStart : undefined;
  const moved = cursor === undefined ? undefined : cursor >= at + from.length ? cursor + to.length - from.length : Math.min(cursor, at + to.length);
  setContent(text.slice(0, at) + to + text.slice(at + from.length), moved);
  saveDraftSoon();
}

/** Where new text goes: the text area's cursor, or the end. */
function insertAtCursor(snippet: string): void {
  const el = document.querySelector<HTMLTextAreaElement>(".compose-text");
  const text = compose.content.peek();
  const at = el && document.activeElement === el ? el.selectionStart : text.length;
  const before = text.slice(0, at);
  const after = text.slice(at);
  const lead = before && !before.endsWith("\n") ? "\n" : "";
  const trail = after.startsWith("\n") ? "" : "\n";
  setContent(before + lead + snippet + trail + after, (before + lead + snippet + trail).length);
}

export function uploadFiles(files: Iterable<File>): void {
  const limit = realm.peek().max_file_upload_size_mib;
  for (const file of files) {
    if (mib(file.size) > limit) {
      compose.error.value = `“${file.name}” is too large to upload: this server accepts files up to ${limit} MiB.`;
      continue;
    }
    const id = ++counter;
    const base = `[Uploading ${linkText(file.name)}…]()`;
    const placeholder = compose.content.peek().includes(base) ? `[Uploading ${linkText(file.name)} (${id})…]()` : base;
    const controller = new AbortController();
    uploads.value = [...uploads.value, { id, name: file.name, size: file.size, loaded: 0, cancel: () => controller.abort() }];
    insertAtCursor(placeholder);
    import("./upload-run")
      .then(({ runUpload }) => runUpload(file, (loaded) => change(id, { loaded }), controller.signal))
      .then(
        (done) => {
          replaceText(placeholder, `[${linkText(done.filename)}](${done.url})`);
          dismissUpload(id);
        },
        (e) => {
          replaceText(placeholder, "");
          if (controller.signal.aborted) dismissUpload(id);
          else change(id, { error: `${file.name} could not be uploaded: ${describeError(e)}` });
        },
      );
  }
}

/** Whether a drag carries files (not text or a link being moved). */
export const carriesFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes("Files");
