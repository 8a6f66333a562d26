// Progress on a terminal (a bar with counts and an estimate, redrawn at most 10 times a second), and
// the summary every import prints at its end.

export interface Totals {
  people: number;
  channels: number;
  messages: number;
  reactions: number;
  files: number;
}

export class Progress {
  private done = 0;
  private started = Date.now();
  private lastDraw = 0;
  private readonly tty: boolean;

  constructor(
    private readonly out: NodeJS.WriteStream = process.stdout,
    private total = 0,
    private label = "messages",
  ) {
    this.tty = Boolean(out.isTTY);
  }

  /** A new phase: the bar restarts with its own total. */
  start(label: string, total: number) {
    this.label = label;
    this.total = total;
    this.done = 0;
    this.started = Date.now();
    this.lastDraw = 0;
  }

  advance(n: number) {
    this.done += n;
    if (!this.tty) return;
    const now = Date.now();
    if (now - this.lastDraw < 100 && this.done < this.total) return;
    this.lastDraw = now;
    this.out.write(`\r${bar(this.done, this.total, this.label, (now - this.started) / 1000)}\x1b[K`);
  }

  /** Ends the bar's line (terminals only). */
  finish() {
    if (this.tty && this.lastDraw) this.out.write(`\r${bar(this.done, this.total, this.label, (Date.now() - this.started) / 1000)}\x1b[K\n`);
  }
}

/** "[#####.....] 5,000/10,000 messages, 2,500/s, about 2 s left" */
export function bar(done: number, total: number, label: string, elapsedSecs: number): string {
  const width = 30;
  const share = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(share * width);
  const rate = elapsedSecs > 0 ? done / elapsedSecs : 0;
  const left = rate > 0 && total > done ? ` about ${formatSecs((total - done) / rate)} left` : "";
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${fmt(done)}/${fmt(total)} ${label}, ${fmt(Math.round(rate))}/s,${left || " done"}`;
}

const fmt = (n: number) => n.toLocaleString("en-US");
const formatSecs = (s: number) => (s < 90 ? `${Math.ceil(s)} s` : `${Math.ceil(s / 60)} min`);

/** The summary lines: what came in and what was left out, by kind. */
export function summaryLines(imported: Totals, skipped: Map<string, number>, notes: string[] = []): string[] {
  const lines = [
    `Imported ${fmt(imported.people)} people, ${fmt(imported.channels)} channels, ${fmt(imported.messages)} messages, ${fmt(imported.reactions)} reactions, ${fmt(imported.files)} files.`,
  ];
  const left = [...skipped].filter(([, n]) => n > 0).map(([kind, n]) => `${fmt(n)} ${kind}`);
  lines.push(left.length ? `Skipped ${left.join(", ")} (each named above).` : "Skipped nothing.");
  return [...lines, ...notes];
}
