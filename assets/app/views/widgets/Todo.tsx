/** A to-do list: its title (its author may change it), tasks with a checkbox each (struck when done), new tasks. */
import { useState } from "preact/hooks";
import type { Message } from "../../state/types";
import { hasTask, strikeEvent, titleEvent, type TaskList } from "../../state/widgets";
import { useNextIndex, type Send } from "./widget-bits";
import { WidgetTitle } from "./WidgetTitle";

export function TodoWidget({ list, send }: { m: Message; list: TaskList; send: Send }) {
  const [task, setTask] = useState("");
  const [desc, setDesc] = useState("");
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

  return (
    <div class="widget todo-widget" role="group" aria-label={`To-do list: ${list.title}`}>
      <WidgetTitle value={list.title} canEdit={list.isAuthor} fieldLabel="Task list title" editLabel="Edit the title" onSave={(t) => send(titleEvent(t))}>
        <span class="todo-title">{list.title}</span>
      </WidgetTitle>
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
