import { UnsupportedEvent, type Integration } from "./types";
import { Wild } from "./wild";
import { globalTime } from "./alerts";

/**
 * Zulip's Sentry integration (zerver/webhooks/sentry/view.py): events (exceptions with the failing
 * line's context, messages), issues (created, resolved, assigned, ignored), the payload of a plain
 * webhook alert, and the deprecated plugin format. The topic is the event's or issue's title.
 */
const NAME = "Sentry";

/** Sentry's platform names as the code-block language Zulip highlights them with. */
const HIGHLIGHT: Record<string, string> = { go: "go", java: "java", javascript: "javascript", node: "javascript", python: "python3", ruby: "ruby" };

const tracebackLines = (lines: Wild) => lines.list().map((l) => (l.str() === "" ? "\n" : `     ${l.str()}\n`)).join("");

function eventMessage(event: Wild): { topic: string; body: string } {
  const title = event.at("title").str();
  const platform = event.at("platform").str();
  const highlight = Object.hasOwn(HIGHLIGHT, platform) ? HIGHLIGHT[platform]! : "";
  // the Raven SDKs are deprecated; their sample event is still accepted
  if (platform === "python" && Number(event.at("version").value) < 7 && title !== "This is an example Python exception") throw new UnsupportedEvent(NAME, "Raven SDK");
  const level = event.at("level").str();
  const link = event.at("web_url").str();
  const time = globalTime(event.at("datetime").str());
  if (event.has("exception")) {
    const filename = event.at("metadata").get("filename").value === undefined ? null : event.at("metadata").at("filename").strOrNull();
    const values = event.at("exception").at("values").list();
    const stacktrace = [...values].reverse().find((v) => v.has("stacktrace"))?.at("stacktrace");
    const head = `**New exception:** [${title}](${link})\n\`\`\`quote\n**level:** ${level}\n**timestamp:** ${time}\n**filename:** ${filename ?? "None"}\n\`\`\``;
    if (stacktrace && filename) {
      const frame = [...stacktrace.at("frames").list()].reverse().find((f) => f.get("filename").value === filename);
      if (frame && frame.get("context_line").value !== undefined && frame.get("context_line").value !== null) {
        const pre = tracebackLines(frame.get("pre_context"));
        const post = tracebackLines(frame.get("post_context"));
        return { topic: title, body: `${head}\n\nTraceback:\n\`\`\`${highlight}\n${pre}---> ${frame.at("context_line").str()}\n${post}\`\`\`` };
      }
    }
    return { topic: title, body: head };
  }
  if (event.has("logentry")) return { topic: title, body: `**New message event:** [${title}](${link})\n\`\`\`quote\n**level:** ${level}\n**timestamp:** ${time}\n\`\`\`` };
  throw new UnsupportedEvent(NAME, "unknown-event type");
}

function issueMessage(action: string, issue: Wild, actor: Wild): { topic: string; body: string } {
  const title = issue.at("title").str();
  const time = globalTime(issue.at("lastSeen").str());
  const to = issue.get("assignedTo");
  const assignee = to.truthy ? (to.at("type").str() === "team" ? `team ${to.at("name").str()}` : to.at("name").str()) : "No one";
  let body: string;
  if (action === "created") body = `**New issue created:** ${title}\n\`\`\`quote\n**level:** ${issue.at("level").str()}\n**timestamp:** ${time}\n**assignee:** ${assignee}\n\`\`\``;
  else if (action === "resolved") body = `Issue **${title}** was marked as resolved by **${actor.at("name").str()}**.`;
  else if (action === "assigned") body = `Issue **${title}** has now been assigned to **${assignee}** by **${actor.at("name").str()}**.`;
  else if (action === "ignored") body = `Issue **${title}** was ignored by **${actor.at("name").str()}**.`;
  else throw new UnsupportedEvent(NAME, `${action} action`);
  return { topic: title, body };
}

/** Python's datetime.fromtimestamp(ts, utc).isoformat(timespec="microseconds"). */
function isoMicros(seconds: number): string {
  const ms = Math.floor(seconds * 1000);
  const micros = Math.round((seconds - Math.floor(seconds)) * 1e6) % 1e6;
  return new Date(ms).toISOString().slice(0, 19) + "." + String(micros).padStart(6, "0") + "+00:00";
}

/** A webhook alert (not an internal integration) carries `event` at the top with its ids: Zulip rebuilds `web_url` and `datetime`. */
function fromWebhookAlert(p: Wild): Wild | null {
  const event = p.get("event");
  if (!event.get("event_id").truthy) return null;
  const base = p.at("url").str();
  const ts = event.get("timestamp").value !== undefined ? event.at("timestamp").num() : event.at("received").num();
  const copy = { ...(event.value as object), web_url: new URL(`events/${event.at("event_id").str()}/`, base).href, datetime: isoMicros(ts) };
  return new Wild({ event: copy }, "payload");
}

export const sentry: Integration = {
  name: "sentry",
  displayName: NAME,
  handle({ payload: p }) {
    const data = p.get("data").value !== undefined && p.get("data").value !== null ? p.at("data") : fromWebhookAlert(p);
    let m: { topic: string; body: string };
    if (data && data.truthy) {
      if (data.has("event")) m = eventMessage(data.at("event"));
      else if (data.has("issue")) m = issueMessage(p.at("action").str(), data.at("issue"), p.at("actor"));
      else throw new UnsupportedEvent(NAME, `[${data.keys().map((k) => `'${k}'`).join(", ")}]`);
    } else {
      m = {
        topic: p.get("project_name").py(),
        body: `New [issue](${p.get("url").py()}) (level: ${p.at("level").str().toUpperCase()}):\n\n\`\`\` quote\n${p.get("message").py()}\n\`\`\``,
      };
    }
    return [m];
  },
};
