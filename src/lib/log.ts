// Logs on stderr: one line per entry, readable text or JSON lines, filtered by level; silenced in tests
// unless PARLEY_LOG is set. Lines at info and debug (a busy server's request lines) are gathered and
// written together once per turn of the event loop, so logging costs a request no write of its own;
// warnings and errors are written at once.
export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFormat = "text" | "json";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** One request as `parley serve` logs it. */
export interface RequestLine {
  method: string;
  path: string;
  status: number;
  ms: number;
  client: string;
  user_id?: number;
  user_agent?: string;
}

export interface Log {
  debug(msg: string, extra?: Record<string, unknown>): void;
  info(msg: string, extra?: Record<string, unknown>): void;
  warn(msg: string, extra?: Record<string, unknown>): void;
  error(msg: string, extra?: Record<string, unknown>): void;
  /** A request line: error level for a 5xx answer, else info. */
  request(line: RequestLine): void;
  /** Whether entries of this level are written (callers skip work for lines nobody reads). */
  enabled(level: LogLevel): boolean;
  /** Writes what is gathered now. */
  flush(): void;
  /** Writes what is gathered; later entries are still written, but the process's exit no longer waits on this log. */
  close(): void;
}

export interface LogOptions {
  quiet?: boolean;
  level?: LogLevel;
  format?: LogFormat;
  /** where the text goes (default: stderr) */
  write?: (text: string) => void;
  now?: () => number;
}

/** Gathered lines are written once they reach this many characters, even within one turn. */
const FLUSH_AT = 64 * 1024;

export function createLog(opts: LogOptions | boolean = {}): Log {
  const o: LogOptions = typeof opts === "boolean" ? { quiet: opts } : opts;
  const min = o.quiet ? Infinity : RANK[o.level ?? "info"];
  const json = o.format === "json";
  const write = o.write ?? ((text: string) => void process.stderr.write(text));
  const now = o.now ?? Date.now;
  let pending = "";
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    if (!pending) return;
    const text = pending;
    pending = "";
    write(text);
  };
  const emit = (level: LogLevel, line: string) => {
    pending += line;
    if (RANK[level] >= RANK.warn || pending.length >= FLUSH_AT) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  // a burst of answers (a broadcast's long-polls) shares its millisecond: formatted once for them all
  let lastMs = NaN;
  let lastTime = "";
  const time = () => {
    const ms = now();
    if (ms !== lastMs) {
      lastMs = ms;
      lastTime = new Date(ms).toISOString();
    }
    return lastTime;
  };

  const entry = (level: LogLevel) => (msg: string, extra?: Record<string, unknown>) => {
    if (RANK[level] < min) return;
    if (json) emit(level, JSON.stringify({ time: time(), level, msg, ...extra }) + "\n");
    else emit(level, `${time()} ${level} ${msg}${extra ? " " + JSON.stringify(extra) : ""}\n`);
  };

  const request = (r: RequestLine) => {
    const level: LogLevel = r.status >= 500 ? "error" : "info";
    if (RANK[level] < min) return;
    const ms = Math.round(r.ms * 10) / 10;
    if (json) {
      emit(level, JSON.stringify({ time: time(), level, msg: "request", ...r, ms }) + "\n");
      return;
    }
    let line = `${time()} ${level} ${r.method} ${r.path} ${r.status} ${ms}ms ${r.client}`;
    if (r.user_id !== undefined) line += ` user=${r.user_id}`;
    if (r.user_agent !== undefined) line += ` ua=${JSON.stringify(r.user_agent)}`;
    emit(level, line + "\n");
  };

  if (min !== Infinity) atExit.add(flush);
  const close = () => {
    flush();
    atExit.delete(flush);
  };
  return { debug: entry("debug"), info: entry("info"), warn: entry("warn"), error: entry("error"), request, enabled: (level) => RANK[level] >= min, flush, close };
}

/** Every open log's flush, run when the process exits (one listener however many logs there are). */
const atExit = new Set<() => void>();
process.once("exit", () => {
  for (const flush of atExit) flush();
});
