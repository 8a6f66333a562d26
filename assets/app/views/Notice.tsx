/** A short message at the bottom of the page for what went wrong (or right) after an action. */
import { signal } from "@preact/signals";

const notice = signal<{ text: string; id: number } | null>(null);
let counter = 0;

export function showNotice(text: string): void {
  const id = ++counter;
  notice.value = { text, id };
  setTimeout(() => {
    if (notice.value?.id === id) notice.value = null;
  }, 6000);
}

export function Notice() {
  const n = notice.value;
  return (
    <div class="notice-region" role="status" aria-live="polite">
      {n && (
        <div class="notice">
          <span>{n.text}</span>
          <button type="button" class="link-button" onClick={() => (notice.value = null)}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
