import { describe, expect, test } from "bun:test";
import { mayHaveSubmessages, pollEventError, taskListEventError, widgetEventError, widgetOf, widgetTypeOf } from "../../src/domain/widgets";

describe("widgetOf (Zulip's get_widget_data)", () => {
  test("ordinary messages never become widgets, even when they mention a command", () => {
    for (const content of ["", "     ", "this is an ordinary message", "/bogus_command", "/me shrugs", "use /poll", "/polls are fun", "/Poll x", " /poll x", "/todo-list", "//poll"]) {
      expect(widgetOf(content)).toBeNull();
    }
  });

  test("/poll takes the question from its line and one option per following line, list markers and blank lines dropped", () => {
    expect(widgetOf("/poll What is your favorite color?\n\nRed\nGreen  \n\n   Blue\n - Yellow")).toEqual({
      widget_type: "poll",
      extra_data: { question: "What is your favorite color?", options: ["Red", "Green", "Blue", "Yellow"] },
    });
    expect(widgetOf("/poll")).toEqual({ widget_type: "poll", extra_data: { question: "", options: [] } });
    // no question: the options start on the next line
    expect(widgetOf("/poll\nyes\n* no\n-maybe")).toEqual({ widget_type: "poll", extra_data: { question: "", options: ["yes", "no", "maybe"] } });
    // a tab or a Windows line break ends the command as well
    expect(widgetOf("/poll\tLunch?\r\nPizza\r\nSoup")).toEqual({ widget_type: "poll", extra_data: { question: "Lunch?", options: ["Pizza", "Soup"] } });
  });

  test("/todo takes the task list title and tasks, a task's description after the first ': '", () => {
    expect(widgetOf("/todo")).toEqual({ widget_type: "todo", extra_data: { task_list_title: "", tasks: [] } });
    expect(widgetOf("/todo   School Work")).toEqual({ widget_type: "todo", extra_data: { task_list_title: "School Work", tasks: [] } });
    expect(widgetOf("/todo\nTask")).toEqual({ widget_type: "todo", extra_data: { task_list_title: "", tasks: [{ task: "Task", desc: "" }] } });
    expect(widgetOf("/todo Example Task List Title\n\n    task without description\ntask: with description    \n\n - task as list : also with description")).toEqual({
      widget_type: "todo",
      extra_data: {
        task_list_title: "Example Task List Title",
        tasks: [
          { task: "task without description", desc: "" },
          { task: "task", desc: "with description" },
          { task: "task as list", desc: "also with description" },
        ],
      },
    });
    expect(widgetOf("/todo x\nread: chapter 2: the end")!.extra_data).toEqual({ task_list_title: "x", tasks: [{ task: "read", desc: "chapter 2: the end" }] });
  });
});

test("exactly the contents that declare a widget may have submessages (fetches query no others)", () => {
  for (const content of ["/poll", "/todo", "/poll Q?\nA", "/todo\nx", "/poll\u00a0Q", "/poll\tQ"]) {
    expect(widgetOf(content)).not.toBeNull();
    expect(mayHaveSubmessages(content)).toBe(true);
  }
  for (const content of ["", "hi", "/pollx", "/todos", "/me waves", " /poll", "//poll", "/Poll", "poll"]) {
    expect(widgetOf(content)).toBeNull();
    expect(mayHaveSubmessages(content)).toBe(false);
  }
});

describe("widgetTypeOf (Zulip's get_widget_type)", () => {
  test("reads widget_type from a widget submessage, null for anything else", () => {
    expect(widgetTypeOf('{"widget_type": "poll", "extra_data": {}}')).toBe("poll");
    expect(widgetTypeOf('{"widget_type": "todo"}')).toBe("todo");
    expect(widgetTypeOf("bogus non-json")).toBeNull();
    expect(widgetTypeOf('{"bogus": 1}')).toBeNull();
    expect(widgetTypeOf("null")).toBeNull();
    expect(widgetTypeOf('{"widget_type": 5}')).toBeNull();
  });
});

describe("poll events (Zulip's validate_poll_data)", () => {
  const cases: [unknown, string][] = [
    ["", "poll data is not a dict"],
    [[], "poll data is not a dict"],
    [null, "poll data is not a dict"],
    [{}, "type key is missing from poll data"],
    [{ type: 5 }, 'poll data["type"] is not a string'],
    [{ type: "bogus" }, "Unknown type for poll data: bogus"],
    [{ type: "vote" }, "key key is missing from poll data"],
    [{ type: "vote", key: "canned,0" }, "vote key is missing from poll data"],
    [{ type: "vote", key: 5, vote: 1 }, 'poll data["key"] is not a string'],
    [{ type: "vote", key: "1,1,", vote: 1 }, 'Invalid poll data["key"]'],
    [{ type: "vote", key: "x", vote: 1 }, 'Invalid poll data["key"]'],
    [{ type: "vote", key: "canned,0", vote: 99 }, 'Invalid poll data["vote"]'],
    [{ type: "vote", key: "canned,0", vote: true }, 'poll data["vote"] is not an integer'],
    [{ type: "vote", key: "canned,0", vote: 1, extra: 1 }, "Unexpected arguments: extra"],
    [{ type: "question" }, "question key is missing from poll data"],
    [{ type: "question", question: 7 }, 'poll data["question"] is not a string'],
    [{ type: "new_option" }, "option key is missing from poll data"],
    [{ type: "new_option", idx: 7, option: 999 }, 'poll data["option"] is not a string'],
    [{ type: "new_option", idx: -1, option: "pizza" }, 'poll data["idx"] is too small'],
    [{ type: "new_option", idx: 1001, option: "pizza" }, 'poll data["idx"] is too large'],
    [{ type: "new_option", idx: "bogus", option: "maybe" }, 'poll data["idx"] is not an integer'],
  ];
  for (const [data, error] of cases) {
    test(`${JSON.stringify(data)} is refused with "${error}"`, () => {
      expect(pollEventError(data, true)).toBe(error);
    });
  }

  test("votes, new options and the author's question are accepted; only the author may change the question", () => {
    expect(pollEventError({ type: "vote", key: "canned,0", vote: 1 }, false)).toBeNull();
    expect(pollEventError({ type: "vote", key: "12,3", vote: -1 }, false)).toBeNull();
    expect(pollEventError({ type: "new_option", idx: 7, option: "maybe" }, false)).toBeNull();
    expect(pollEventError({ type: "question", question: "what's for dinner?" }, true)).toBeNull();
    expect(pollEventError({ type: "question", question: "Tabs or spaces?" }, false)).toBe("You can't edit a question unless you are the author.");
  });
});

describe("to-do events (Zulip's validate_todo_data)", () => {
  const cases: [unknown, string][] = [
    [5, "todo data is not a dict"],
    [{ type: "bogus" }, "Unknown type for todo data: bogus"],
    [{ type: "new_task" }, "key key is missing from todo data"],
    [{ type: "new_task", key: 7, task: 7, desc: "", completed: false }, 'todo data["task"] is not a string'],
    [{ type: "new_task", key: -1, task: "eat", desc: "", completed: false }, 'todo data["key"] is too small'],
    [{ type: "new_task", key: 1001, task: "eat", desc: "", completed: false }, 'todo data["key"] is too large'],
    [{ type: "new_task", key: 1, task: "eat", desc: "" }, "completed key is missing from todo data"],
    [{ type: "new_task", key: 1, task: "eat", desc: "", completed: "no" }, 'todo data["completed"] is not a boolean'],
    [{ type: "strike" }, "key key is missing from todo data"],
    [{ type: "strike", key: 999 }, 'todo data["key"] is not a string'],
    [{ type: "new_task_list_title" }, "title key is missing from todo data"],
  ];
  for (const [data, error] of cases) {
    test(`${JSON.stringify(data)} is refused with "${error}"`, () => {
      expect(taskListEventError(data, true)).toBe(error);
    });
  }

  test("new tasks and strikes are accepted from anyone; only the author may retitle the list", () => {
    expect(taskListEventError({ type: "new_task", key: 7, task: "eat", desc: "", completed: false }, false)).toBeNull();
    expect(taskListEventError({ type: "strike", key: "5,9" }, false)).toBeNull();
    expect(taskListEventError({ type: "new_task_list_title", title: "School Work" }, true)).toBeNull();
    expect(taskListEventError({ type: "new_task_list_title", title: "School Work" }, false)).toBe("You can't edit the task list title unless you are the author.");
  });
});

test("events for a widget of another type are not checked, as Zulip's", () => {
  expect(widgetEventError("zform", { anything: true }, false)).toBeNull();
  expect(widgetEventError("poll", { anything: true }, false)).toBe("type key is missing from poll data");
  expect(widgetEventError("todo", { type: "vote" }, false)).toBe("Unknown type for todo data: vote");
});
