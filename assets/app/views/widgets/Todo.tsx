/** A to-do list: its title (its author may change it), tasks with a checkbox each (struck when done), new tasks. */
import { useState } from "preact/hooks";
import type { Message } from "../../state/types";
import { hasTask, strikeEvent, titleEvent, type TaskList } from "../../state/widgets";
import { PencilIcon } from "../icons-writing";
import { focusOnMount, useNextIndex, type Send } from "./widget-bits";

export function TodoWidget({ list, send }: { m: Message; list: TaskList; send: Send }) {
  const [task, setTask] = useState("");
  const [desc, setDesc] = useState("");
  const [editing, setEditing] = useState<string | null>(null);
  const nextIdx = useNextIndex(list.lastIdx + 1);
  const name = task.trim();
  const duplicate = name !== "" && hasTask(list, name);

  const addTask = (e: Event) => {
    e.preventDefault();
    if (!name || duplicate) return;
    send({ type: "new_task", key: nextIdx(), task: name, desc: desc.trim(), completed: false });
    setTask("");
    setDesc("");
  };
  const saveTitle = (e: Event) => {
    e.preventDefault();
    const t = editing?.trim();
    if (t && t !== list.title) send(titleEvent(t));
    setEditing(null);
  };

  return (
    <div class="widget todo-widget" role="group" aria-label={`To-do list: ${list.title}`}>
      {editing !== null ? (
        <form key="title-form" class="widget-title-form" onSubmit={saveTitle} onKeyDown={(e) => e.key === "Escape" && (e.stopPropagation(), setEditing(null))}>
          <input class="widget-input" aria-label="Task list title" value={editing} onInput={(e) => setEditing(e.currentTarget.value)} ref={focusOnMount} />
          <button type="submit" class="button subtle" disabled={!editing.trim()}>
            Save
          </button>
          <button type="button" class="button subtle" onClick={() => setEditing(null)}>
            Cancel
          </button>
        </form>
      ) : (
        <div key="title" class="widget-title">
          <span class="todo-title">{list.title}</span>
          {list.isAuthor && (
            <button type="button" class="icon-button small" aria-label="Edit the title" title="Edit the title" onClick={() => setEditing(list.title)}>
              <PencilIcon size={15} />
            </button>
          )}
        </div>
      )}
      <ul class="todo-tasks">
        {list.tasks.map((t) => (
          <li key={t.key} class={`todo-task ${t.completed ? "done" : ""}`}>
            <label>
              <input type="checkbox" checked={t.completed} onChange={() => send(strikeEvent(t.key))} />
              <span class="todo-task-name">{t.task}</span>
              {t.desc && <span class="todo-task-desc">: {t.desc}</span>}
            </label>
          </li>
        ))}
      </ul>
      <form key="add" class="widget-add" onSubmit={addTask}>
        <input class="widget-input" aria-label="New task" placeholder="New task" value={task} maxLength={200} onInput={(e) => setTask(e.currentTarget.value)} />
        <input class="widget-input" aria-label="Task description" placeholder="Description (optional)" value={desc} maxLength={200} onInput={(e) => setDesc(e.currentTarget.value)} />
        <button type="submit" class="button subtle" disabled={!name || duplicate} title={duplicate ? "This task is already there." : undefined}>
          Add task
        </button>
      </form>
    </div>
  );
}
