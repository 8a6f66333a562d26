import type { App } from "../../app";
import { hasRowsAboveFloor, raiseUnreadFloor } from "../../store/unread-floors";
import { listAllUserIds } from "../../store/users";

/**
 * Keeps each user's unread floor (migrations 0002, 0003) close behind their newest rows, off the send
 * path: a send adds no unread-index entries, and reading a user's unread messages scans only the rows
 * they received since their floor was last raised, and their unread ranges below it. The timer loop
 * raises floors once sends have been quiet for QUIET_MS; a user whose tail reaches TAIL_MAX rows is
 * raised at once, however busy the server. A raise scans the tail twice and writes one range per
 * thousand rows: about 0.15 µs per row passed, where the index cost a page write per recipient.
 */
const QUIET_MS = 1000;
const TAIL_MAX = 20_000;
/** Rows passed per transaction, so long tails let requests in between. */
const CHUNK = 5_000;

class FloorKeeper {
  /** rows each user received since their floor was last raised (in this process) */
  private readonly received = new Map<number, number>();
  /** the first pass after this process's first send takes every user: an earlier process may have stopped uncleanly */
  private everyone = true;
  private lastWrite = 0;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly app: App) {
    app.onClose.push(() => this.close());
  }

  noteRows(userIds: number[]) {
    let long: number[] | null = null;
    for (const u of userIds) {
      const n = (this.received.get(u) ?? 0) + 1;
      this.received.set(u, n);
      if (n === TAIL_MAX) (long ??= []).push(u);
    }
    this.lastWrite = performance.now();
    if (long) void this.raise(long);
  }

  /** The timer loop's step: once sends are quiet, raise everyone who received rows. */
  async whenQuiet(): Promise<void> {
    // nothing sent yet: start-up stays light (no write, no checkpoint thread)
    if (!this.lastWrite || performance.now() - this.lastWrite < QUIET_MS) return;
    if (this.everyone) {
      this.everyone = false;
      return this.raise(await listAllUserIds(this.app.db));
    }
    if (this.received.size) return this.raise([...this.received.keys()]);
  }

  /**
   * Raises the users' floors past their whole tails, in transactions of up to CHUNK rows that take as
   * many users as fit (a message to a big channel leaves many short tails), one raise at a time.
   */
  raise(users: number[]): Promise<void> {
    const pass = async () => {
      // most users' tails are empty after a pass: a read, not a write transaction, tells
      const withTails: number[] = [];
      for (const u of users) {
        this.received.delete(u);
        if (await hasRowsAboveFloor(this.app.db, u)) withTails.push(u);
      }
      let next = 0;
      while (next < withTails.length && !this.closed) {
        await this.app.db.tx(async (sql) => {
          for (let budget = CHUNK; next < withTails.length && budget > 0; ) {
            const passed = await raiseUnreadFloor(sql, withTails[next]!, budget);
            // fewer than asked: that tail is done; as many: the user may have more, in the next transaction
            if (passed < budget) next++;
            budget -= passed;
          }
        });
        await new Promise((r) => setImmediate(r));
      }
    };
    const run = this.chain.then(pass, pass);
    this.chain = run.catch((e) => this.app.log.error(`raising unread floors failed: ${e instanceof Error ? e.stack : e}`));
    return this.chain;
  }

  /** closeApp: raise what this process added, so a restart starts with short tails. */
  private async close() {
    await this.raise([...this.received.keys()]);
    this.closed = true;
  }
}

const keepers = new WeakMap<App, FloorKeeper>();

function keeperOf(app: App): FloorKeeper {
  let k = keepers.get(app);
  if (!k) keepers.set(app, (k = new FloorKeeper(app)));
  return k;
}

/** After the message writer commits: each recipient's tail grew by one row per message. */
export const noteRowsReceived = (app: App, userIds: number[]) => keeperOf(app).noteRows(userIds);

/** The timer loop's job: raises floors once sends have been quiet for a second. */
export const raiseUnreadFloorsWhenQuiet = (app: App) => keeperOf(app).whenQuiet();

/** Raises the users' floors past their whole tails now (tests; the loop does this on its own). */
export const raiseUnreadFloorsNow = (app: App, users: number[]) => keeperOf(app).raise(users);
