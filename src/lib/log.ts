/** One-line logs on stderr; silenced in tests unless PARLEY_LOG is set. */
export interface Log {
  info(msg: string, extra?: Record<string, unknown>): void;
  warn(msg: string, extra?: Record<string, unknown>): void;
  error(msg: string, extra?: Record<string, unknown>): void;
}

export function createLog(quiet = false): Log {
  const write = (level: string) => (msg: string, extra?: Record<string, unknown>) => {
    if (quiet) return;
    const tail = extra ? " " + JSON.stringify(extra) : "";
    process.stderr.write(`${new Date().toISOString()} ${level} ${msg}${tail}\n`);
  };
  return { info: write("info"), warn: write("warn"), error: write("error") };
}
