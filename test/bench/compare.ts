// npm run bench -- --compare[=bench-results/X.json]: each figure of this run beside the same figure of a
// previous run, flagged when it moved by more than that kind of figure moves between two runs of the same
// code on the development machine (a shared 2-core VM). Pure functions: run.ts reads the files.

/** What a figure measures, which sets its noise and which way is better. */
export type FigureKind = "throughput" | "ratio" | "latency_p50" | "latency_p99" | "start" | "memory" | "size";

/**
 * How far a figure moves between two runs of the same code, as a fraction of the previous value: a move
 * beyond it is flagged. Throughput on the shared VM varies by about ±10% run to run; tail latency and
 * start-up (wall clock, 2 cores shared) far more; resident memory by a few per cent; sizes of built files
 * not at all (the same code builds the same bytes).
 */
export const NOISE: Record<FigureKind, number> = {
  throughput: 0.1,
  ratio: 0.1,
  latency_p50: 0.2,
  latency_p99: 0.25,
  start: 0.2,
  memory: 0.05,
  size: 0,
};

/** Higher is better for rates and ratios; lower for everything else. */
const HIGHER_IS_BETTER: Record<FigureKind, boolean> = { throughput: true, ratio: true, latency_p50: false, latency_p99: false, start: false, memory: false, size: false };

export interface Figure {
  /** a path into the results JSON, or a name computed from two of them (ratios) */
  key: string;
  label: string;
  kind: FigureKind;
  unit: string;
  /** a figure of the issue's goals table */
  goal?: boolean;
  /** how the figure was measured: two runs measured differently are not compared */
  method?: (r: Results) => string;
}

type Results = Record<string, any>;

const at = (r: Results, path: string): number | undefined => {
  let v: any = r;
  for (const p of path.split(".")) v = v?.[p];
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
};
const ratio = (r: Results, a: string, b: string) => {
  const x = at(r, a);
  const y = at(r, b);
  return x !== undefined && y ? x / y : undefined;
};

/** Ratios to a same-run baseline: steadier across runs than the rates themselves. */
const COMPUTED: Record<string, (r: Results) => number | undefined> = {
  send_vs_elysia_insert: (r) => ratio(r, "send_20_subscribers.per_second", "baseline_elysia_insert.per_second"),
  presence_vs_hello: (r) => ratio(r, "presence.per_second", "baseline_hello.per_second"),
  webhook_vs_send: (r) => ratio(r, "webhook_same_text.per_second", "send_20_subscribers.per_second"),
};

/** The broadcast's long-polls went through fetch until the lean client (raw-http.ts), which is now the default. */
const broadcastClient = (r: Results) => String(r.broadcast?.client ?? "fetch");

/** Throughput runs count from after a warm-up since it existed (run.ts WARMUP); before, from their first request. */
const warmUp = (r: Results) => `warm-up ${Number(r.warmup_ms ?? 0)} ms`;

export const FIGURES: Figure[] = [
  { key: "broadcast.p99_ms", label: "broadcast to 1,000 pending queues, p99 from send start", kind: "latency_p99", unit: "ms", goal: true, method: broadcastClient },
  { key: "broadcast.p50_ms", label: "broadcast to 1,000 pending queues, p50 from send start", kind: "latency_p50", unit: "ms", method: broadcastClient },
  { key: "send_vs_elysia_insert", label: "send ÷ Elysia + insert (same run)", kind: "ratio", unit: "×", goal: true, method: warmUp },
  { key: "send_20_subscribers.per_second", label: "send, 20-subscriber channel, 32 senders", kind: "throughput", unit: "msg/s", method: warmUp },
  { key: "send_20_subscribers.p99_ms", label: "send p99", kind: "latency_p99", unit: "ms", method: warmUp },
  { key: "start_to_first_answer_ms", label: "start to first answered request", kind: "start", unit: "ms", goal: true },
  { key: "start_cpu_ms", label: "start: CPU time to first answer", kind: "start", unit: "ms" },
  { key: "idle_rss_mib", label: "idle RSS", kind: "memory", unit: "MiB", goal: true },
  { key: "idle_rss_anon_mib", label: "idle RSS, anonymous", kind: "memory", unit: "MiB" },
  { key: "baseline_hello.per_second", label: "baseline: Bun.serve hello", kind: "throughput", unit: "req/s", method: warmUp },
  { key: "baseline_elysia_insert.per_second", label: "baseline: Elysia + 1 libSQL insert", kind: "throughput", unit: "req/s", method: warmUp },
  { key: "webhook_vs_send", label: "webhook (send's text) ÷ send", kind: "ratio", unit: "×", method: warmUp },
  { key: "send_to_event.p50_ms", label: "send → pending GET /events p50", kind: "latency_p50", unit: "ms" },
  { key: "send_to_event.p99_ms", label: "send → pending GET /events p99", kind: "latency_p99", unit: "ms" },
  { key: "presence_vs_hello", label: "presence ÷ hello", kind: "ratio", unit: "×", method: warmUp },
  { key: "register.p50_ms", label: "POST /register p50", kind: "latency_p50", unit: "ms" },
  { key: "held_polls.kib_each_above_idle", label: "held GET /events, each above idle", kind: "memory", unit: "KiB" },
  { key: "fetch_topic_newest_100.p50_ms", label: "GET /messages newest 100 p50", kind: "latency_p50", unit: "ms" },
  { key: "search.p50_ms", label: "search p50", kind: "latency_p50", unit: "ms" },
  { key: "web.first_load.total_gz_kib", label: "web: first load JS + CSS, gzipped", kind: "size", unit: "KiB" },
  { key: "web.first_list.cold_p50_ms", label: "web: first message list painted, next task (cold p50)", kind: "latency_p50", unit: "ms" },
  { key: "web.first_list.cold_frame_painted_p50_ms", label: "web: first message list's frame (Element Timing, cold p50)", kind: "latency_p50", unit: "ms" },
  { key: "web.settings.chunk_gz_kib", label: "web: settings code, gzipped", kind: "size", unit: "KiB" },
  { key: "import.messages_per_cpu_second", label: "import: messages per CPU-second", kind: "throughput", unit: "msg/s" },
];

export const figureValue = (r: Results, key: string): number | undefined => (COMPUTED[key] ? COMPUTED[key](r) : at(r, key));

export type Verdict = "better" | "worse" | "within noise" | "new" | "not run now" | "measured differently";

export interface Comparison {
  figure: Figure;
  previous: number | undefined;
  current: number | undefined;
  /** (current − previous) / previous */
  change: number | undefined;
  verdict: Verdict;
}

/** Every figure either run has, with how it moved; figures neither run has are left out. */
export function compareResults(previous: Results, current: Results): Comparison[] {
  const out: Comparison[] = [];
  for (const figure of FIGURES) {
    const p = figureValue(previous, figure.key);
    const c = figureValue(current, figure.key);
    if (p === undefined && c === undefined) continue;
    if (p === undefined) {
      out.push({ figure, previous: p, current: c, change: undefined, verdict: "new" });
      continue;
    }
    if (c === undefined) {
      out.push({ figure, previous: p, current: c, change: undefined, verdict: "not run now" });
      continue;
    }
    const change = p === 0 ? (c === 0 ? 0 : Infinity) : (c - p) / Math.abs(p);
    if (figure.method && figure.method(previous) !== figure.method(current)) {
      out.push({ figure, previous: p, current: c, change, verdict: "measured differently" });
      continue;
    }
    const noise = NOISE[figure.kind];
    // sizes are exact: any change is a change; others must move beyond their noise
    const moved = figure.kind === "size" ? c !== p : Math.abs(change) > noise;
    const up = c > p;
    const verdict: Verdict = !moved ? "within noise" : up === HIGHER_IS_BETTER[figure.kind] ? "better" : "worse";
    out.push({ figure, previous: p, current: c, change, verdict });
  }
  return out;
}

const show = (v: number | undefined, unit: string) => (v === undefined ? "—" : `${unit === "×" ? v.toFixed(2) : Math.round(v * 10) / 10}${unit === "×" ? "×" : ` ${unit}`}`);

/** The comparison as text lines: a table, then one line naming what got worse (or that nothing did). */
export function formatComparison(rows: Comparison[], previousName: string): string[] {
  const cells = rows.map((r) => [
    `${r.figure.goal ? "* " : "  "}${r.figure.label}`,
    show(r.previous, r.figure.unit),
    show(r.current, r.figure.unit),
    r.change === undefined ? "" : `${r.change >= 0 ? "+" : ""}${(r.change * 100).toFixed(1)}%`,
    r.verdict === "worse" ? "WORSE" : r.verdict,
    r.figure.kind === "size" ? "exact" : `±${NOISE[r.figure.kind] * 100}%`,
  ]);
  const head = ["figure (* = a goal of issue 25)", "previous", "now", "change", "verdict", "noise"];
  const w = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => x.padEnd(w[i]!)).join(" | ").trimEnd();
  const worse = rows.filter((r) => r.verdict === "worse");
  return [
    `compared with ${previousName}`,
    line(head),
    w.map((n) => "-".repeat(n)).join("-|-"),
    ...cells.map(line),
    worse.length ? `REGRESSION beyond the noise: ${worse.map((r) => r.figure.label).join("; ")}` : "no figure moved the wrong way beyond its noise",
  ];
}

/** The newest results file other than `exclude` (names sort by their timestamp), or null. */
export function newestPrevious(names: string[], exclude?: string): string | null {
  const candidates = names.filter((n) => /^bench-.*\.json$/.test(n) && n !== exclude).sort();
  return candidates.at(-1) ?? null;
}
