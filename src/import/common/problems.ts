/**
 * What an import reports instead of a stack trace: a refusal (ImportError: nothing was written) or a
 * skipped item (logged with the file and the item, counted in the summary).
 */
export class ImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImportError";
  }
}

/** Skipped items: each logged once as it happens (to stderr by default), counted by kind for the summary. */
export class SkipLog {
  // counts only: the lines go to `write` as they happen (an export may skip a line per message)
  readonly counts = new Map<string, number>();
  constructor(private readonly write: (line: string) => void = (l) => process.stderr.write(l + "\n")) {}

  /** `kind` names what was skipped ("messages", "reactions", "files"); `where` the file and the item. */
  skip(kind: string, where: string, why: string) {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    const line = `skipped: ${where}: ${why}`;
    this.write(line);
  }

  count(kind: string): number {
    return this.counts.get(kind) ?? 0;
  }
}
