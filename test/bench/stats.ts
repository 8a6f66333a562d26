/** Latency statistics over a list of milliseconds. */
export function summarize(latencies: number[], elapsedMs: number) {
  const sorted = latencies.slice().sort((a, b) => a - b);
  const at = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN);
  return {
    count: sorted.length,
    per_second: Math.round((sorted.length / elapsedMs) * 1000),
    p50_ms: round(at(50)),
    p90_ms: round(at(90)),
    p99_ms: round(at(99)),
    max_ms: round(sorted[sorted.length - 1] ?? NaN),
  };
}

const round = (n: number) => Math.round(n * 100) / 100;
