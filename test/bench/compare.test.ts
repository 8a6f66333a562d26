import { describe, expect, test } from "bun:test";
import { compareResults, figureValue, formatComparison, newestPrevious, type Comparison } from "./compare";

// Two results files as run.ts writes them (only the figures the comparison reads).
const previous = {
  baseline_hello: { per_second: 40000 },
  baseline_elysia_insert: { per_second: 10000 },
  send_20_subscribers: { per_second: 4000, p99_ms: 20 },
  broadcast: { p50_ms: 60, p99_ms: 200 },
  start_to_first_answer_ms: 150,
  idle_rss_mib: 60,
  web: { first_load: { total_gz_kib: 140.2 } },
  register: { p50_ms: 10 },
};

const byKey = (rows: Comparison[], key: string) => rows.find((r) => r.figure.key === key)!;

describe("the bench's --compare", () => {
  test("a figure that moved less than its kind's noise is within noise, beyond it better or worse by its direction", () => {
    const current = {
      ...previous,
      baseline_hello: { per_second: 43000 }, // +7.5%: throughput noise is ±10%
      send_20_subscribers: { per_second: 3000, p99_ms: 26 }, // -25% rate, p99 +30% (noise ±25%)
      broadcast: { p50_ms: 40, p99_ms: 40 }, // much lower latency is better
      start_to_first_answer_ms: 160, // +6.7%, start noise ±20%
      idle_rss_mib: 66, // +10%, memory noise ±5%
    };
    const rows = compareResults(previous, current);
    expect(byKey(rows, "baseline_hello.per_second")).toMatchObject({ previous: 40000, current: 43000, verdict: "within noise" });
    expect(byKey(rows, "send_20_subscribers.per_second")).toMatchObject({ change: -0.25, verdict: "worse" });
    expect(byKey(rows, "send_20_subscribers.p99_ms").verdict).toBe("worse");
    expect(byKey(rows, "broadcast.p99_ms")).toMatchObject({ previous: 200, current: 40, change: -0.8, verdict: "better" });
    expect(byKey(rows, "start_to_first_answer_ms").verdict).toBe("within noise");
    expect(byKey(rows, "idle_rss_mib").verdict).toBe("worse");
  });

  test("the send rate is compared as its ratio to the same run's Elysia + insert baseline", () => {
    // both rates fell by half (a slower machine): the ratio did not move
    const slower = { ...previous, baseline_elysia_insert: { per_second: 5000 }, send_20_subscribers: { per_second: 2000, p99_ms: 20 } };
    expect(figureValue(previous, "send_vs_elysia_insert")).toBe(0.4);
    const ratio = byKey(compareResults(previous, slower), "send_vs_elysia_insert");
    expect(ratio).toMatchObject({ previous: 0.4, current: 0.4, change: 0, verdict: "within noise" });
    expect(byKey(compareResults(previous, slower), "send_20_subscribers.per_second").verdict).toBe("worse");
  });

  test("broadcast figures measured with another client (fetch before, the lean client now) are not compared, in either direction", () => {
    const lean = { ...previous, broadcast: { p50_ms: 20, p99_ms: 400, client: "raw" } };
    for (const [a, b] of [
      [previous, lean],
      [lean, previous],
    ]) {
      const rows = compareResults(a!, b!);
      expect(byKey(rows, "broadcast.p99_ms").verdict).toBe("measured differently");
      expect(byKey(rows, "broadcast.p50_ms").verdict).toBe("measured differently");
    }
    // the same client on both sides: compared as usual
    expect(byKey(compareResults(lean, { ...lean, broadcast: { p50_ms: 20, p99_ms: 600, client: "raw" } }), "broadcast.p99_ms").verdict).toBe("worse");
    expect(formatComparison(compareResults(previous, lean), "old.json").at(-1)).toBe("no figure moved the wrong way beyond its noise");
  });

  test("throughput measured after a warm-up is not compared with throughput counted from the first request, nor their ratios", () => {
    const warmed = { ...previous, warmup_ms: 2000, send_20_subscribers: { ...previous.send_20_subscribers, per_second: previous.send_20_subscribers.per_second * 1.5 } };
    const rows = compareResults(previous, warmed);
    for (const key of ["send_20_subscribers.per_second", "send_vs_elysia_insert", "baseline_elysia_insert.per_second"]) expect(byKey(rows, key).verdict).toBe("measured differently");
    // the same warm-up on both sides: compared as usual
    expect(byKey(compareResults(warmed, { ...warmed, send_20_subscribers: { ...warmed.send_20_subscribers, per_second: previous.send_20_subscribers.per_second } }), "send_vs_elysia_insert").verdict).toBe("worse");
  });

  test("a size that changed at all is flagged, however little", () => {
    const bigger = compareResults(previous, { ...previous, web: { first_load: { total_gz_kib: 140.3 } } });
    expect(byKey(bigger, "web.first_load.total_gz_kib").verdict).toBe("worse");
    const same = compareResults(previous, previous);
    expect(byKey(same, "web.first_load.total_gz_kib").verdict).toBe("within noise");
  });

  test("a figure only one run has is new or not run now, and one neither has is left out", () => {
    const rows = compareResults({ ...previous, search: { p50_ms: 5 } }, { ...previous, register: undefined, presence: { per_second: 20000 } });
    expect(byKey(rows, "search.p50_ms")).toMatchObject({ previous: 5, current: undefined, verdict: "not run now" });
    expect(byKey(rows, "register.p50_ms").verdict).toBe("not run now");
    expect(byKey(rows, "presence_vs_hello")).toMatchObject({ previous: undefined, current: 0.5, verdict: "new" });
    expect(rows.find((r) => r.figure.key === "import.messages_per_cpu_second")).toBeUndefined();
  });

  test("the printed comparison marks the issue's goals and names every regression on its last line", () => {
    const lines = formatComparison(compareResults(previous, { ...previous, idle_rss_mib: 70, broadcast: { p50_ms: 60, p99_ms: 100 } }), "bench-old.json");
    expect(lines[0]).toBe("compared with bench-old.json");
    const rss = lines.find((l) => l.includes("idle RSS"))!;
    expect(rss.startsWith("* idle RSS")).toBe(true);
    expect(rss).toContain("60 MiB");
    expect(rss).toContain("70 MiB");
    expect(rss).toContain("+16.7%");
    expect(rss).toContain("WORSE");
    expect(lines.find((l) => l.includes("p99 from send start"))).toContain("better");
    expect(lines.at(-1)).toBe("REGRESSION beyond the noise: idle RSS");
    expect(formatComparison(compareResults(previous, previous), "x").at(-1)).toBe("no figure moved the wrong way beyond its noise");
  });

  test("the newest previous results file is the last by name, never the run's own", () => {
    const names = ["bench-2026-11-28T10-00-00-000Z.json", "bench-2026-11-29T09-00-00-000Z.json", "notes.txt", "bench-2026-11-29T11-00-00-000Z.json"];
    expect(newestPrevious(names)).toBe("bench-2026-11-29T11-00-00-000Z.json");
    expect(newestPrevious(names, "bench-2026-11-29T11-00-00-000Z.json")).toBe("bench-2026-11-29T09-00-00-000Z.json");
    expect(newestPrevious(["notes.txt"])).toBeNull();
  });
});
