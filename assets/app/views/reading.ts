/**
 * Marking messages read as the person sees them: rows that come into view are collected and sent in
 * one POST /messages/flags a moment later (the server's update_message_flags event then updates the
 * counts). Only while the page is visible, and as the person's web_mark_read_on_scroll_policy allows.
 */
import { markMessagesRead } from "../api/calls";

const BATCH_MS = 300;

export class ReadTracker {
  private observer: IntersectionObserver;
  private queued = new Set<number>();
  private sent = new Set<number>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** false after "mark as unread from here", or when the person's setting says not to */
  enabled = true;

  constructor(root: HTMLElement) {
    this.observer = new IntersectionObserver((entries) => this.seen(entries), { root, threshold: [0, 0.5, 1] });
  }

  private watched = new Set<Element>();

  watch(el: Element): void {
    this.watched.add(el);
    this.observer.observe(el);
  }

  unwatch(el: Element): void {
    this.watched.delete(el);
    this.observer.unobserve(el);
  }

  /** Watches the rows now in `root` and lets go of those that left the page (the list's window moved). */
  sync(root: HTMLElement): void {
    for (const el of this.watched) if (!el.isConnected) this.unwatch(el);
    for (const el of root.querySelectorAll(".message-row[data-message-id]")) if (!this.watched.has(el)) this.watch(el);
  }

  stop(): void {
    this.observer.disconnect();
    if (this.timer) clearTimeout(this.timer);
  }

  /** Looks again at what is on screen (the page became visible): observing anew reports what shows now. */
  recheck(): void {
    for (const el of this.watched) {
      this.observer.unobserve(el);
      this.observer.observe(el);
    }
  }

  private seen(entries: IntersectionObserverEntry[]): void {
    if (!this.enabled || document.visibilityState !== "visible") return;
    for (const e of entries) {
      const el = e.target as HTMLElement;
      if (!el.classList.contains("unread")) continue;
      const rootHeight = e.rootBounds?.height ?? 0;
      // most of it shows, or it fills half the view (a long message)
      const visible = e.intersectionRatio >= 0.5 || e.intersectionRect.height >= rootHeight / 2;
      const id = Number(el.dataset.messageId);
      if (visible && id && !this.sent.has(id)) this.queued.add(id);
    }
    if (this.queued.size && !this.timer) this.timer = setTimeout(() => this.flush(), BATCH_MS);
  }

  private flush(): void {
    this.timer = null;
    const ids = [...this.queued];
    this.queued.clear();
    for (const id of ids) this.sent.add(id);
    markMessagesRead(ids).catch(() => {
      // the next time they come into view they are tried again
      for (const id of ids) this.sent.delete(id);
    });
  }

  /** Messages marked unread again may be marked read again later. */
  forget(ids: Iterable<number>): void {
    for (const id of ids) this.sent.delete(id);
  }
}
