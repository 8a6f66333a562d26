import type { App } from "../../app";
import type { Term } from "../../store/narrow";
import { indexPendingMessages, searchIndexState } from "../../store/search-index";

/**
 * Deferred full-text indexing (Zulip updates its search index from a queue worker, not in the send):
 * a send's transaction writes no FTS pages. After the message writer commits, a pass runs soon after
 * in transactions of its own, and a start that finds a backlog (rows written straight to the store,
 * an unclean stop) indexes it in the background in batches, letting requests in between. A search
 * never waits for it: it reads the index for what is indexed and scans the rows still pending. When
 * nothing is pending the check is a remembered read (no query).
 */
const DELAY_MS = 200;
// small batches: each one holds the process (the embedded engine runs on its thread) while requests wait
const BATCH = 250;

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

  /** The newest indexed id when some message is not indexed yet, else null (remembered until messages or the watermark change). */
  async pendingAbove(): Promise<number | null> {
    const s = await this.app.db.memo(["messages", "messages_fts_indexed"], "search-index:state", () => searchIndexState(this.app.db));
    return s.newest > s.indexed ? s.indexed : null;
  }

  /** Indexes everything pending, in batches (one pass at a time; callers share the running one). */
  catchUp(): Promise<void> {
    const pass = async () => {
      while (!this.closed && (await this.pendingAbove()) !== null) {
        const n = await this.app.db.tx((sql) => indexPendingMessages(sql, BATCH));
        if (n < BATCH) break;
        // a backlog: let requests (sends, searches, page loads) in between batches
        await new Promise((r) => setTimeout(r, 5));
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

/** At start: a backlog left by an earlier process is indexed in the background, in batches. */
export function indexSearchBacklog(app: App): void {
  indexerOf(app);
}

/** Waits until nothing is pending (tests, and callers that need the index whole). */
export const searchIndexCaughtUp = (app: App) => indexerOf(app).catchUp();

/**
 * Before a full-text search: when messages are still pending, the search terms also scan them (and
 * a background pass is asked for), so the search sees every message sent before it without waiting.
 */
export async function ensureSearchIndexed(app: App, terms: Term[]): Promise<void> {
  const ix = indexerOf(app);
  const above = await ix.pendingAbove();
  if (above === null) return;
  ix.soon(0);
  for (const t of terms) if (t.k === "search") t.pending = { above, patterns: pendingScanPatterns(t.fts) };
}

/** Characters outside FTS tokens (unicode61: letters and numbers are token characters). */
const SEPARATOR = "[^a-z0-9\u0080-\u{10FFFF}]";

/**
 * GLOB patterns a pending row's lower-cased " topic content " must all match for an FTS query of
 * quoted phrases: each word of each phrase as a whole word (word order within a phrase is left to
 * the index, which takes over once the row is indexed a moment later).
 */
export function pendingScanPatterns(fts: string): string[] {
  const words = fts.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return [...new Set(words)].map((w) => `*${SEPARATOR}${w}${SEPARATOR}*`);
}
