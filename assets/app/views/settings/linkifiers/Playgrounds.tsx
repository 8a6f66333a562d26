/**
 * Code playgrounds (Zulip's settings_playgrounds.ts): for a code block's language, a site that opens its
 * code. Administrators add and delete them; everyone sees the list.
 */
import { useState } from "preact/hooks";
import { addPlayground, deletePlayground } from "../../../api/org";
import { canAdministerOrg } from "../../../state/permissions";
import type { Playground } from "../../../state/org";
import { org, state } from "../../../state/store";
import { SaveError, SaveStatus, useId, useSaver } from "../controls";
import { ReadOnlyNote } from "../organization/fields";

function AddPlayground() {
  const saver = useSaver();
  const id = useId("playground");
  const [language, setLanguage] = useState("");
  const [name, setName] = useState("");
  const [template, setTemplate] = useState("");
  const submit = async (e: Event) => {
    e.preventDefault();
    if (await saver.run(() => addPlayground(name, language, template))) {
      setLanguage("");
      setName("");
      setTemplate("");
    }
  };
  return (
    <form class="settings-add-form" onSubmit={(e) => void submit(e)} aria-label="Add a code playground">
      <h3>Add a code playground</h3>
      <div class="setting">
        <label for={`${id}-language`}>Language</label>
        <input id={`${id}-language`} type="text" value={language} placeholder="python" onInput={(e) => setLanguage(e.currentTarget.value)} />
      </div>
      <div class="setting">
        <label for={`${id}-name`}>Name</label>
        <input id={`${id}-name`} type="text" value={name} placeholder="Python playground" onInput={(e) => setName(e.currentTarget.value)} />
      </div>
      <div class="setting">
        <label for={`${id}-template`}>URL template</label>
        <input id={`${id}-template`} type="text" value={template} placeholder="https://python.example/?code={code}" spellcheck={false} onInput={(e) => setTemplate(e.currentTarget.value)} />
      </div>
      <div class="setting-row">
        <button type="submit" class="button primary" disabled={saver.state.kind === "saving"}>
          Add code playground
        </button>
        <SaveStatus state={saver.state} />
      </div>
      <SaveError state={saver.state} />
    </form>
  );
}

function PlaygroundRow({ p, editable }: { p: Playground; editable: boolean }) {
  const saver = useSaver();
  return (
    <li>
      <span>
        <strong>{p.pygments_language}</strong> — {p.name}
      </span>
      <span class="muted-text">{p.url_template}</span>
      {editable && (
        <button type="button" class="button danger" aria-label={`Delete ${p.name}`} disabled={saver.state.kind === "saving"} onClick={() => void saver.run(() => deletePlayground(p.id))}>
          Delete
        </button>
      )}
      <SaveError state={saver.state} />
    </li>
  );
}

export function Playgrounds() {
  const editable = canAdministerOrg(state.value!);
  const list = org.value.playgrounds;
  return (
    <div class="settings-section">
      <ReadOnlyNote editable={editable} />
      {editable && <AddPlayground />}
      <h3>Code playgrounds</h3>
      {list.length ? (
        <ul class="settings-list" aria-label="Code playgrounds">
          {list.map((p) => (
            <PlaygroundRow key={p.id} p={p} editable={editable} />
          ))}
        </ul>
      ) : (
        <p class="muted-text">No code playgrounds yet.</p>
      )}
    </div>
  );
}
