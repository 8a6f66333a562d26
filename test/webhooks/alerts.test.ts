import { describe, expect, test } from "bun:test";
import { one, run } from "./run";
import { globalTime } from "../../src/webhooks/alerts";

// Our own payloads, shaped as Grafana, Prometheus Alertmanager and Home Assistant document theirs.
const grafanaAlert = (status: string, extra: Record<string, unknown> = {}) => ({
  status,
  labels: { alertname: "DiskFull", instance: "nas:9100" },
  annotations: { summary: "Disk almost full" },
  startsAt: "2026-01-05T10:00:00.5Z",
  endsAt: status === "resolved" ? "2026-01-05T10:30:00Z" : "0001-01-01T00:00:00Z",
  generatorURL: "https://grafana.example.com/alerting/grafana/abc/view",
  fingerprint: "8fc3f2a1b2c3",
  silenceURL: "https://grafana.example.com/alerting/silence/new",
  values: { B: 97.5, C: 1 },
  ...extra,
});

describe("grafana", () => {
  test("unified alerting: one message per alert, topic [alertname], labels, values, annotations and links", () => {
    const [firing, resolved] = run("grafana", { receiver: "parley", status: "firing", alerts: [grafanaAlert("firing"), grafanaAlert("resolved", { values: null, valueString: "[ var='B' value=12 ]" })] });
    expect(firing).toEqual({
      topic: "[DiskFull]",
      event: "firing",
      body:
        ":alert: **FIRING**\n\n**DiskFull**\n\nThis alert was fired at <time:2026-01-05T10:00:00.500000+00:00>.\n\nLabels:\n- alertname: DiskFull\n- instance: nas:9100\n\n" +
        "Values:\n- B: 97.5\n- C: 1\n\nAnnotations:\n- summary: Disk almost full\n\n[Generator](https://grafana.example.com/alerting/grafana/abc/view)\n[Silence](https://grafana.example.com/alerting/silence/new)\n",
    });
    expect(resolved!.body).toStartWith(":checkbox: **RESOLVED**\n\n**DiskFull**\n\nThis alert was fired at <time:2026-01-05T10:00:00.500000+00:00>.\n\nThis alert was resolved at <time:2026-01-05T10:30:00+00:00>.");
    expect(resolved!.body).toContain("Values:\n[ var='B' value=12 ]\n\nAnnotations:");
  });

  test("an alert without alertname is named by its fingerprint", () => {
    expect(one("grafana", { alerts: [grafanaAlert("firing", { labels: {} })] }).topic).toBe("[8fc3f2a1b2c3]");
  });

  test("the legacy (Grafana 7) format: title as topic, state icon, rule link, message and matches", () => {
    const m = one("grafana", {
      title: "[Alerting] CPU high",
      ruleName: "CPU high",
      ruleUrl: "https://grafana.example.com/d/x",
      state: "alerting",
      message: "Load above 8",
      evalMatches: [{ metric: "load1", value: 9.2 }, { metric: "load5", value: null }],
      imageUrl: "https://grafana.example.com/render/x.png",
    });
    expect(m).toEqual({
      topic: "[Alerting] CPU high",
      event: "alerting",
      body: ":alert: **ALERTING**\n\n[CPU high](https://grafana.example.com/d/x)\n\nLoad above 8\n\n**load1:** 9.2\n**load5:** None\n\n[Click to view visualization](https://grafana.example.com/render/x.png)",
    });
    expect(one("grafana", { title: "t", ruleName: "r", ruleUrl: "https://g/x", state: "ok" }).body).toBe(":squared_ok: **OK**\n\n[r](https://g/x)");
  });

  test("an unknown state or status is refused", () => {
    expect(() => run("grafana", { title: "t", ruleName: "r", ruleUrl: "u", state: "exploded" })).toThrow("Invalid payload['state']");
    expect(() => run("grafana", { alerts: [grafanaAlert("weird")] })).toThrow("Invalid payload['alerts'][0]['status']");
  });

  test("times keep their offset, as Python prints them", () => {
    expect(globalTime("2026-01-05T10:00:00+02:00")).toBe("<time:2026-01-05T10:00:00+02:00>");
    expect(globalTime("2026-01-05T10:00:00.123456789Z")).toBe("<time:2026-01-05T10:00:00.123456+00:00>");
  });
});

describe("alertmanager", () => {
  const alert = (status: string, instance: string, alertname: string) => ({
    status,
    labels: { alertname, instance, severity: "page" },
    annotations: { summary: `${alertname} on ${instance}` },
    startsAt: "2026-01-05T10:00:00Z",
    generatorURL: `https://prometheus.example.com/graph?g0.expr=up&g0.tab=1&${alertname}`,
  });

  test("alerts are grouped by instance; one alert is one line, several a list; firing before resolved", () => {
    const out = run("alertmanager", { receiver: "parley", status: "firing", alerts: [alert("firing", "web-1", "Down"), alert("firing", "web-1", "Slow"), alert("resolved", "web-1", "Disk"), alert("firing", "db", "Down")] });
    expect(out).toEqual([
      { topic: "web-1", body: ":alert: **FIRING**\n* Down ([source](https://prometheus.example.com/graph?g0.expr=up&g0.tab=0&Down))\n* Slow ([source](https://prometheus.example.com/graph?g0.expr=up&g0.tab=0&Slow))" },
      { topic: "web-1", body: ":squared_ok: **Resolved** Disk ([source](https://prometheus.example.com/graph?g0.expr=up&g0.tab=0&Disk))" },
      { topic: "db", body: ":alert: **FIRING** Down ([source](https://prometheus.example.com/graph?g0.expr=up&g0.tab=0&Down))" },
    ]);
  });

  test("name= and desc= choose other labels or annotations; missing ones are said so", () => {
    const [m] = run("alertmanager", { alerts: [alert("firing", "web-1", "Down")] }, {}, { name: "severity", desc: "summary" });
    expect(m).toEqual({ topic: "page", body: ":alert: **FIRING** Down on web-1 ([source](https://prometheus.example.com/graph?g0.expr=up&g0.tab=0&Down))" });
    const [n] = run("alertmanager", { alerts: [{ status: "firing", generatorURL: "https://p/x" }] });
    expect(n).toEqual({ topic: "(unknown)", body: ":alert: **FIRING** <missing field: alertname> ([source](https://p/x))" });
  });
});

describe("homeassistant", () => {
  test("the notify payload's message, under its topic or 'homeassistant'", () => {
    expect(one("homeassistant", { message: "The washing machine is done", topic: "laundry" })).toEqual({ topic: "laundry", body: "The washing machine is done" });
    expect(one("homeassistant", { message: "Door opened" }).topic).toBe("homeassistant");
    expect(() => run("homeassistant", { title: "x" })).toThrow("payload['message'] is missing");
  });
});
