import { badRequest } from "../errors";
import type { Integration, WebhookMessage } from "./types";
import type { Wild } from "./wild";

/** Python's str() of a JSON value, as Zulip formats alert values. */
function pyStr(v: unknown): string {
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  return typeof v === "string" ? v : JSON.stringify(v);
}

/**
 * Zulip's <time:…> for an ISO timestamp, as Python's datetime.fromisoformat(…).isoformat() prints it:
 * fractions to six digits, Z as +00:00.
 */
export function globalTime(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:[.,](\d+))?(Z|[+-]\d{2}:?\d{2})?$/.exec(iso);
  if (!m) throw badRequest(`Invalid date: ${iso}`);
  const time = m[2]!.length === 5 ? `${m[2]}:00` : m[2]!;
  const fraction = m[3] ? "." + m[3].slice(0, 6).padEnd(6, "0") : "";
  const zone = m[4] === undefined ? "" : m[4] === "Z" ? "+00:00" : m[4].includes(":") ? m[4] : `${m[4].slice(0, 3)}:${m[4].slice(3)}`;
  return `<time:${m[1]}T${time}${fraction}${zone}>`;
}

const oneOf = (w: Wild, allowed: string[]) => {
  const v = w.str();
  if (!allowed.includes(v)) throw badRequest(`Invalid ${w.path}`);
  return v;
};

/** Zulip's Grafana integration: unified alerting (Grafana 8+: one message per alert) and the legacy (7.x) format. */
export const grafana: Integration = {
  name: "grafana",
  displayName: "Grafana",
  eventTypes: ["ok", "pending", "alerting", "paused", "firing", "resolved"],
  handle({ payload: p }) {
    if (p.has("alerts")) {
      const out: WebhookMessage[] = [];
      for (const alert of p.at("alerts").list()) {
        const status = oneOf(alert.at("status"), ["firing", "resolved"]);
        let body = status === "firing" ? `:alert: **FIRING**\n\n` : `:checkbox: **RESOLVED**\n\n`;
        const labels = alert.at("labels");
        let topic: string;
        if (labels.get("alertname").truthy) {
          const name = labels.at("alertname").str();
          topic = `[${name}]`;
          body += `**${name}**\n\n`;
        } else topic = `[${alert.at("fingerprint").str()}]`;
        body += `This alert was fired at ${globalTime(alert.at("startsAt").str())}.`;
        const end = alert.at("endsAt").str();
        if (end !== "0001-01-01T00:00:00Z") body += `\n\nThis alert was resolved at ${globalTime(end)}.`;
        if (labels.truthy) body += `\n\nLabels:\n${labels.keys().map((k) => `- ${k}: ${labels.at(k).str()}\n`).join("")}\n`;
        const values = alert.get("values");
        if (values.truthy) body += `Values:\n${values.keys().map((k) => `- ${k}: ${pyStr(values.at(k).value)}\n`).join("")}\n`;
        else if (alert.get("valueString").truthy) body += `Values:\n${alert.at("valueString").str()}\n\n`;
        const annotations = alert.get("annotations");
        if (annotations.truthy) body += `Annotations:\n${annotations.keys().map((k) => `- ${k}: ${annotations.at(k).str()}\n`).join("")}`;
        if (alert.get("generatorURL").truthy) body += `\n[Generator](${alert.at("generatorURL").str()})`;
        if (alert.get("silenceURL").truthy) body += `\n[Silence](${alert.at("silenceURL").str()})`;
        if (alert.get("imageURL").truthy) body += `\n[Image](${alert.at("imageURL").str()})`;
        out.push({ topic, body: body + "\n", event: status });
      }
      return out;
    }
    const topic = p.at("title").str();
    let matches = "";
    if (p.get("evalMatches").value !== undefined && p.get("evalMatches").value !== null) {
      for (const m of p.at("evalMatches").list()) {
        const v = m.at("value").value;
        if (v !== null && typeof v !== "number") throw badRequest(`${m.at("value").path} is not a number`);
        matches += `**${m.at("metric").str()}:** ${pyStr(v)}\n`;
      }
    }
    const message = p.has("message") ? p.at("message").str() + "\n\n" : "";
    const state = oneOf(p.at("state"), ["no_data", "paused", "alerting", "ok", "pending", "unknown"]);
    const icon = state === "alerting" ? ":alert:" : state === "ok" ? ":squared_ok:" : ":info:";
    let body = `${icon} **${state.toUpperCase()}**\n\n[${p.at("ruleName").str()}](${p.at("ruleUrl").str()})\n\n${message}${matches}`;
    if (p.has("imageUrl")) body += `\n[Click to view visualization](${p.at("imageUrl").str()})`;
    return [{ topic, body: body.trim(), event: state }];
  },
};

/**
 * Zulip's Alertmanager integration: alerts grouped by the `name` label (default "instance"), one
 * message per group and status, each alert described by the `desc` label (default "alertname").
 */
export const alertmanager: Integration = {
  name: "alertmanager",
  displayName: "Alertmanager",
  handle({ payload: p, params }) {
    const nameField = params.name ?? "instance";
    const descField = params.desc ?? "alertname";
    const topics = new Map<string, { firing: string[]; resolved: string[] }>();
    for (const alert of p.at("alerts").list()) {
      const labels = alert.get("labels");
      const annotations = alert.get("annotations");
      const pick = (field: string, fallback: string) => (labels.has(field) ? labels.at(field).str() : annotations.has(field) ? annotations.at(field).str() : fallback);
      const name = pick(nameField, "(unknown)");
      const desc = pick(descField, `<missing field: ${descField}>`);
      const url = alert.at("generatorURL").str().replace("tab=1", "tab=0");
      const status = oneOf(alert.at("status"), ["firing", "resolved"]) as "firing" | "resolved";
      if (!topics.has(name)) topics.set(name, { firing: [], resolved: [] });
      topics.get(name)![status].push(`${desc} ([source](${url}))`);
    }
    const out: WebhookMessage[] = [];
    for (const [topic, statuses] of topics) {
      for (const status of ["firing", "resolved"] as const) {
        const messages = statuses[status];
        if (!messages.length) continue;
        const head = status === "firing" ? ":alert: **FIRING**" : ":squared_ok: **Resolved**";
        out.push({ topic, body: messages.length === 1 ? `${head} ${messages[0]}` : `${head}\n${messages.map((m) => `* ${m}`).join("\n")}` });
      }
    }
    return out;
  },
};

/** Zulip's Home Assistant integration: the notify payload's `message`, under its `topic` or "homeassistant". */
export const homeassistant: Integration = {
  name: "homeassistant",
  displayName: "HomeAssistant",
  handle({ payload: p }) {
    return [{ topic: p.has("topic") ? p.at("topic").str() : "homeassistant", body: p.at("message").str() }];
  },
};
