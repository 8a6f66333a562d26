/**
 * Linkifiers (Zulip's settings_linkifiers.ts): patterns that turn text in messages into links, in the
 * order they are tried. Administrators add, edit, reorder (by dragging a row, or Move up / Move down from
 * the keyboard; both send Zulip's PATCH /realm/linkifiers) and delete them; the
 * form previews a pattern on a sample text as a message would show it (lib/linkifier-preview.ts).
 */
import { useState } from "preact/hooks";
import { addLinkifier, deleteLinkifier, editLinkifier, reorderLinkifiers } from "../../../api/org";
import { previewLinkifier } from "../../../lib/linkifier-preview";
import { canAdministerOrg } from "../../../state/permissions";
import type { Linkifier } from "../../../state/org";
import { org, state } from "../../../state/store";
import { FormActions, SaveError, droppedIds, movedIds, useDragOrder, useId, useSaver } from "../controls";
import { ReadOnlyNote } from "../organization/fields";

function Preview({ pattern, template, sample }: { pattern: string; template: string; sample: string }) {
  if (!sample) return null;
  const p = previewLinkifier(pattern, template, sample);
  return (
    <div class="linkifier-preview" aria-live="polite">
      <span class="setting-label">Preview</span>{" "}
      {"error" in p ? (
        <span class="field-error">{p.error}</span>
      ) : (
        <span class="rendered">
          {p.parts.map((part, i) =>
            part.url ? (
              <a key={i} href={part.url} target="_blank" rel="noopener noreferrer" title={part.url}>
                {part.text}
              </a>
            ) : (
              <span key={i}>{part.text}</span>
            ),
          )}
        </span>
      )}
    </div>
  );
}

/** The add form, or an existing linkifier's edit form. */
function LinkifierForm({ initial, onDone }: { initial?: Linkifier; onDone?: () => void }) {
  const saver = useSaver();
  const id = useId("linkifier");
  const [pattern, setPattern] = useState(initial?.pattern ?? "");
  const [template, setTemplate] = useState(initial?.url_template ?? "");
  const [sample, setSample] = useState("");
  const submit = async (e: Event) => {
    e.preventDefault();
    const ok = await saver.run(() => (initial ? editLinkifier(initial.id, pattern, template) : addLinkifier(pattern, template)));
    if (!ok) return;
    if (initial) return onDone?.();
    setPattern("");
    setTemplate("");
    setSample("");
  };
  return (
    <form class="settings-add-form linkifier-form" onSubmit={(e) => void submit(e)} aria-label={initial ? `Edit the linkifier ${initial.pattern}` : "Add a linkifier"}>
      {!initial && <h3>Add a linkifier</h3>}
      <div class="setting">
        <label for={`${id}-pattern`}>Pattern</label>
        <input id={`${id}-pattern`} type="text" value={pattern} placeholder="#(?P<id>[0-9]+)" spellcheck={false} onInput={(e) => setPattern(e.currentTarget.value)} />
      </div>
      <div class="setting">
        <label for={`${id}-template`}>URL template</label>
        <input id={`${id}-template`} type="text" value={template} placeholder="https://github.com/zulip/zulip/issues/{id}" spellcheck={false} onInput={(e) => setTemplate(e.currentTarget.value)} />
      </div>
      <div class="setting">
        <label for={`${id}-sample`}>Try it on a sample text</label>
        <input id={`${id}-sample`} type="text" value={sample} placeholder="Fixed in #123" onInput={(e) => setSample(e.currentTarget.value)} />
      </div>
      <Preview pattern={pattern} template={template} sample={sample} />
      <FormActions saver={saver} submit={initial ? "Save" : "Add linkifier"} onCancel={initial ? onDone : undefined} />
    </form>
  );
}

type DragProps = ReturnType<ReturnType<typeof useDragOrder>["rowProps"]>;

function LinkifierRow({ l, index, list, editable, drag }: { l: Linkifier; index: number; list: Linkifier[]; editable: boolean; drag: DragProps }) {
  const saver = useSaver();
  const [editing, setEditing] = useState(false);
  if (editing) {
    return (
      <li class="linkifier-row editing">
        <LinkifierForm initial={l} onDone={() => setEditing(false)} />
      </li>
    );
  }
  const move = (by: number) => void saver.run(() => reorderLinkifiers(movedIds(list, index, by)));
  return (
    <li class="linkifier-row" {...drag}>
      {editable && (
        <span class="drag-handle" title="Drag to reorder" aria-hidden="true">
          ⠿
        </span>
      )}
      <code class="linkifier-pattern">{l.pattern}</code>
      <span class="linkifier-template">{l.url_template}</span>
      {editable && (
        <span class="row-actions">
          <button type="button" class="button" aria-label={`Move ${l.pattern} up`} disabled={index === 0 || saver.state.kind === "saving"} onClick={() => move(-1)}>
            ↑
          </button>
          <button type="button" class="button" aria-label={`Move ${l.pattern} down`} disabled={index === list.length - 1 || saver.state.kind === "saving"} onClick={() => move(1)}>
            ↓
          </button>
          <button type="button" class="button" aria-label={`Edit ${l.pattern}`} onClick={() => setEditing(true)}>
            Edit
          </button>
          <button type="button" class="button danger" aria-label={`Delete ${l.pattern}`} disabled={saver.state.kind === "saving"} onClick={() => void saver.run(() => deleteLinkifier(l.id))}>
            Delete
          </button>
        </span>
      )}
      <SaveError state={saver.state} />
    </li>
  );
}

export function Linkifiers() {
  const editable = canAdministerOrg(state.value!);
  const list = org.value.linkifiers;
  const dropSaver = useSaver();
  const { rowProps } = useDragOrder((from, to) => void dropSaver.run(() => reorderLinkifiers(droppedIds(list, from, to))));
  return (
    <div class="settings-section">
      <p class="setting-hint">
        Linkifiers turn text that matches a pattern into a link, in every new message. The first that matches wins. Name each part of the pattern with <code>(?P&lt;name&gt;…)</code> and use it in the URL as{" "}
        <code>{"{name}"}</code>.
      </p>
      <ReadOnlyNote editable={editable} />
      {editable && <LinkifierForm />}
      <h3>Linkifiers</h3>
      {list.length ? (
        <ol class="settings-list" aria-label="Linkifiers, in the order they are tried">
          {list.map((l, i) => (
            <LinkifierRow key={l.id} l={l} index={i} list={list} editable={editable} drag={rowProps(i, editable)} />
          ))}
        </ol>
      ) : (
        <p class="muted-text">No linkifiers yet.</p>
      )}
      <SaveError state={dropSaver.state} />
    </div>
  );
}
