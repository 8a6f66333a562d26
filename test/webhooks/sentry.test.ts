import { describe, expect, test } from "bun:test";
import { one, run } from "./run";

// Our own payloads, shaped as Sentry documents its integration platform webhooks (event_alert, issue)
// and its plain webhook alerts.
const exceptionEvent = {
  event_id: "355c3b2a142046629dd410db2fdda003",
  title: "ZeroDivisionError: division by zero",
  platform: "python",
  version: "7",
  level: "error",
  datetime: "2026-01-05T10:00:00Z",
  web_url: "https://sentry.example.com/organizations/team/issues/17/events/355c3b2a/",
  metadata: { filename: "app/stats.py", type: "ZeroDivisionError" },
  exception: {
    values: [
      {
        type: "ZeroDivisionError",
        value: "division by zero",
        stacktrace: {
          frames: [
            { filename: "app/main.py", context_line: "    stats.mean([])", pre_context: [], post_context: [] },
            { filename: "app/stats.py", context_line: "    return sum(xs) / len(xs)", pre_context: ["def mean(xs):", ""], post_context: ["", "def median(xs):"] },
          ],
        },
      },
    ],
  },
};

const messageEvent = { title: "Backup took too long", platform: "node", version: "7", level: "warning", datetime: "2026-01-05T10:00:00.25Z", web_url: "https://sentry.example.com/e/1/", logentry: { message: "Backup took too long" } };

const issue = (assignedTo: unknown = null) => ({ id: "17", title: "ZeroDivisionError: division by zero", level: "error", lastSeen: "2026-01-05T10:00:00Z", assignedTo });
const actor = { type: "user", id: "1", name: "Ada Lovelace" };

describe("sentry", () => {
  test("an exception event shows level, time, file and the failing line in its context", () => {
    expect(one("sentry", { action: "triggered", data: { event: exceptionEvent }, actor })).toEqual({
      topic: "ZeroDivisionError: division by zero",
      body:
        "**New exception:** [ZeroDivisionError: division by zero](https://sentry.example.com/organizations/team/issues/17/events/355c3b2a/)\n```quote\n**level:** error\n**timestamp:** <time:2026-01-05T10:00:00+00:00>\n**filename:** app/stats.py\n```\n\n" +
        "Traceback:\n```python3\n     def mean(xs):\n\n--->     return sum(xs) / len(xs)\n\n     def median(xs):\n```",
    });
  });

  test("a message event", () => {
    expect(one("sentry", { data: { event: messageEvent } }).body).toBe(
      "**New message event:** [Backup took too long](https://sentry.example.com/e/1/)\n```quote\n**level:** warning\n**timestamp:** <time:2026-01-05T10:00:00.250000+00:00>\n```",
    );
  });

  test("issues: created, resolved, assigned to a person or a team, ignored", () => {
    const t = "ZeroDivisionError: division by zero";
    expect(one("sentry", { action: "created", data: { issue: issue() }, actor })).toEqual({
      topic: t,
      body: `**New issue created:** ${t}\n\`\`\`quote\n**level:** error\n**timestamp:** <time:2026-01-05T10:00:00+00:00>\n**assignee:** No one\n\`\`\``,
    });
    expect(one("sentry", { action: "resolved", data: { issue: issue() }, actor }).body).toBe(`Issue **${t}** was marked as resolved by **Ada Lovelace**.`);
    expect(one("sentry", { action: "assigned", data: { issue: issue({ type: "user", name: "Grace" }) }, actor }).body).toBe(`Issue **${t}** has now been assigned to **Grace** by **Ada Lovelace**.`);
    expect(one("sentry", { action: "assigned", data: { issue: issue({ type: "team", name: "backend" }) }, actor }).body).toBe(`Issue **${t}** has now been assigned to **team backend** by **Ada Lovelace**.`);
    expect(one("sentry", { action: "ignored", data: { issue: issue() }, actor }).body).toBe(`Issue **${t}** was ignored by **Ada Lovelace**.`);
    expect(() => run("sentry", { action: "archived", data: { issue: issue() }, actor })).toThrow("The 'archived action' event isn't currently supported by the Sentry webhook; ignoring");
  });

  test("a plain webhook alert: the event's link and time are rebuilt from the issue URL and its timestamp", () => {
    const { web_url: _w, datetime: _d, ...bare } = messageEvent;
    const m = one("sentry", { project_name: "web", url: "https://sentry.example.com/organizations/team/issues/17/", level: "warning", event: { ...bare, event_id: "abc123", timestamp: 1767607200.5 } });
    expect(m.body).toBe("**New message event:** [Backup took too long](https://sentry.example.com/organizations/team/issues/17/events/abc123/)\n```quote\n**level:** warning\n**timestamp:** <time:2026-01-05T10:00:00.500000+00:00>\n```");
  });

  test("the deprecated plugin format, and the Raven SDK refused as Zulip refuses it", () => {
    expect(one("sentry", { project_name: "web", level: "error", url: "https://sentry.example.com/web/issues/1/", message: "Boom" })).toEqual({
      topic: "web",
      body: "New [issue](https://sentry.example.com/web/issues/1/) (level: ERROR):\n\n``` quote\nBoom\n```",
    });
    expect(() => run("sentry", { data: { event: { ...messageEvent, platform: "python", version: "5" } } })).toThrow("The 'Raven SDK' event isn't currently supported by the Sentry webhook; ignoring");
  });
});
