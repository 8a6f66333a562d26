/**
 * Prometheus metrics with prom-client (it runs under Bun): one registry per server, the request
 * counters and latency histogram every request feeds, the messages counter, the process's standard
 * metrics, and gauges read when scraped. Labels are bounded: a route is its template
 * (`/api/v1/messages/:message_id`), never a raw path, and status codes are few.
 */
import client from "prom-client";

/** Seconds: from a cached read to a held long-poll (answered within a minute). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * prom-client's default metrics read V8's heap spaces, which JavaScriptCore (Bun) does not have: those
 * series would be zeros. The rest (CPU, resident memory, open files, event loop lag, heap totals) hold.
 */
const V8_ONLY = ["nodejs_heap_space_size_total_bytes", "nodejs_heap_space_size_used_bytes", "nodejs_heap_space_size_available_bytes"];

export class ServerMetrics {
  readonly registry = new client.Registry();
  private readonly requests: client.Counter<"method" | "route" | "status">;
  private readonly duration: client.Histogram<"method" | "route">;
  private readonly sent: client.Counter;
  /** The children of each label combination, kept: prom-client hashes a label object on every call otherwise. */
  private readonly children = new Map<string, { count: client.Counter.Internal; time: client.Histogram.Internal<"method" | "route"> }>();

  constructor() {
    const registers = [this.registry];
    this.requests = new client.Counter({ name: "parley_http_requests_total", help: "HTTP requests answered, by method, route template and status", labelNames: ["method", "route", "status"], registers });
    this.duration = new client.Histogram({ name: "parley_http_request_duration_seconds", help: "Time to answer HTTP requests (long-polls included), by method and route template", labelNames: ["method", "route"], buckets: LATENCY_BUCKETS, registers });
    this.sent = new client.Counter({ name: "parley_messages_sent_total", help: "Messages stored (sent by users, bots and Parley itself)", registers });
    client.collectDefaultMetrics({ register: this.registry });
    for (const name of V8_ONLY) this.registry.removeSingleMetric(name);
  }

  /** One answered request. */
  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let c = this.children.get(key);
    if (!c) this.children.set(key, (c = { count: this.requests.labels(method, route, String(status)), time: this.duration.labels(method, route) }));
    c.count.inc();
    c.time.observe(seconds);
  }

  messagesSent(n: number): void {
    this.sent.inc(n);
  }

  /** A gauge whose value is read when scraped. */
  gauge(name: string, help: string, read: () => number | Promise<number>): void {
    new client.Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        this.set(await read());
      },
    });
  }

  /** A constant 1 with labels (version information). */
  info(name: string, help: string, labels: Record<string, string>): void {
    new client.Gauge({ name, help, labelNames: Object.keys(labels), registers: [this.registry] }).set(labels, 1);
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

const byOwner = new WeakMap<object, ServerMetrics>();

/** The metrics of a server (the app object), when metrics are on. */
export const metricsOf = (owner: object): ServerMetrics | undefined => byOwner.get(owner);

/** Turns metrics on for a server; once. */
export function attachMetrics(owner: object): ServerMetrics {
  let m = byOwner.get(owner);
  if (!m) byOwner.set(owner, (m = new ServerMetrics()));
  return m;
}
