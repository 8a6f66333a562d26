/**
 * Saved snippets (Zulip's): text kept to insert into messages, each with a title. Created with
 * POST /saved_snippets and deleted with DELETE /saved_snippets/{id}; the saved_snippets events keep the
 * list current.
 */
import { useState } from "preact/hooks";
import { api } from "../../../api/http";
import { state } from "../../../state/store";
import type { SavedSnippet } from "../../../state/types";
import { SaveError, SaveStatus, useId, useSaver } from "../controls";

function SnippetRow({ snippet }: { snippet: SavedSnippet }) {
  const saver = useSaver();
  return (
    <li>
      <div>
        <strong>{snippet.title}</strong>
        <p class="snippet-content">{snippet.content}</p>
      </div>
      <SaveStatus state={saver.state} />
      <SaveError state={saver.state} />
      <button type="button" class="button subtle" aria-label={`Delete the snippet ${snippet.title}`} disabled={saver.state.kind === "saving"} onClick={() => void saver.run(() => api("DELETE", `/saved_snippets/${snippet.id}`))}>
        Delete
      </button>
    </li>
  );
}

export function SavedSnippets() {
  const snippets = Object.values(state.value!.saved_snippets).sort((a, b) => a.title.localeCompare(b.title));
  const saver = useSaver();
  const id = useId("snippet");
  const [title, setTitle] = useState("");
  const [content, setContent] = useState("");
  const add = async (e: Event) => {
    e.preventDefault();
    if (!title.trim()) return saver.refuse("Give the snippet a title.");
    if (!content.trim()) return saver.refuse("Write the snippet's text.");
    if (await saver.run(() => api("POST", "/saved_snippets", { title: title.trim(), content }))) {
      setTitle("");
      setContent("");
    }
  };
  return (
    <div class="settings-section">
      <form class="setting snippet-form" onSubmit={(e) => void add(e)}>
        <label for={`${id}-title`}>Title</label>
        <input id={`${id}-title`} type="text" value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
        <label for={`${id}-content`}>Text</label>
        <textarea id={`${id}-content`} rows={3} value={content} onInput={(e) => setContent(e.currentTarget.value)} />
        <div class="setting-row">
          <button type="submit" class="button" disabled={saver.state.kind === "saving"}>
            Save snippet
          </button>
          <SaveStatus state={saver.state} />
        </div>
        <SaveError state={saver.state} />
      </form>
      {snippets.length ? (
        <ul class="settings-list" aria-label="Your saved snippets">
          {snippets.map((s) => (
            <SnippetRow key={s.id} snippet={s} />
          ))}
        </ul>
      ) : (
        <p class="muted-text">You have no saved snippets.</p>
      )}
    </div>
  );
}
