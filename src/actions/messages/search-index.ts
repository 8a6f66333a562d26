import type { App } from "../../app";
import { indexPendingMessages, searchIndexState } from "../../store/search-index";

/**
 * Deferred full-text indexing (Zulip updates its search index from a queue worker, not in the send):
 * a send's transaction writes no FTS pages. After the message writer commits, a pass runs soon after
 * in transactions of its own; a search first indexes whatever is still pending, so it never misses a
 * message sent before it. When nothing is pending the check is a remembered read (no query).
 */
const DELAY_MS = 200;
const BATCH = 4000;

class SearchIndexer {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private chain: Promise<void> = Promise.resolve();
  private closing = false;
  private closed = false;

  constructor(private readonly app: App) {
    app.onClose.push(() => this.close());
  }

  /** Schedules a background pass (debounced: one pass takes every send of the last DELAY_MS). */
  soon(delayMs = DELAY_MS) {
    if (this.timer || this.closing) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.catchUp().catch((e) => this.app.log.error(`search indexing failed: ${e instanceof Error ? e.stack : e}`));
    }, delayMs);
  }

  /** Whether some message is not indexed yet (remembered until messages or the watermark change). */
  async pending(): Promise<boolean> {
    const s = await this.app.db.memo(["messages", "messages_fts_indexed"], "search-index:state", () => searchIndexState(this.app.db));
    return s.newest > s.indexed;
  }

  /** Indexes everything pending, in batches (one pass at a time; callers share the running one). */
  catchUp(): Promise<void> {
    const pass = async () => {
      while (!this.closed && (await this.pending())) {
        const n = await this.app.db.tx((sql) => indexPendingMessages(sql, BATCH));
        if (n < BATCH) break;
        // a backlog: let requests in between batches
        await new Promise((r) => setImmediate(r));
      }
    };
    const run = this.chain.then(pass, pass);
    this.chain = run.catch(() => {});
    return run;
  }

  /** closeApp: a last pass, so a clean restart finds nothing pending. */
  private async close() {
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.catchUp().catch((e) => this.app.log.error(`search indexing failed: ${e instanceof Error ? e.stack : e}`));
    this.closed = true;
  }
}

const indexers = new WeakMap<App, SearchIndexer>();

function indexerOf(app: App): SearchIndexer {
  let ix = indexers.get(app);
  if (!ix) {
    indexers.set(app, (ix = new SearchIndexer(app)));
    // first use in this process (a send or a search): index any backlog left by an earlier process
    // (one that stopped uncleanly, or rows written to the store directly)
    ix.soon(0);
  }
  return ix;
}

/** After messages are written: index them shortly, off the send path. */
export function indexSearchSoon(app: App): void {
  indexerOf(app).soon();
}

/** Before a full-text search: indexes whatever is pending, so the search sees every message sent before it. */
export async function ensureSearchIndexed(app: App): Promise<void> {
  const ix = indexerOf(app);
  if (await ix.pending()) await ix.catchUp();
}
