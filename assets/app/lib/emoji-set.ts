/**
 * How the person's emoji set (Zulip's `emojiset` setting) is drawn. Parley carries one image set,
 * Google's (Zulip's default); "text" shows every emoji as its `:name:`. Zulip's other two values
 * (twitter, google-blob, which Zulip's own apps may set) are drawn with Google's images, the nearest
 * Parley has. The sheet (3.4 MB) and its table of cells load on first use, as their own chunk and
 * file, so nobody who never sees an emoji fetches them, and the browser keeps them for a year.
 */
import { signal } from "@preact/signals";

export type EmojiMode = "text" | "google";

/** The way an emojiset value is drawn here. */
export const emojiModeOf = (emojiset: string | undefined): EmojiMode => (emojiset === "text" ? "text" : "google");

export interface EmojiSheet {
  url: string;
  cells: number;
  positions: Record<string, number>;
}

/** The Google sheet once loaded (null until then). */
export const emojiSheet = signal<EmojiSheet | null>(null);
let loading: Promise<void> | null = null;

/** Loads the sheet's table and names its file as the CSS variable the sprites read (once). */
export function loadEmojiSheet(): Promise<void> {
  loading ??= import("./emoji-sheet").then(
    (m) => {
      // set through the CSSOM, which the page's Content-Security-Policy allows (a style attribute it would not)
      document.documentElement.style.setProperty("--emoji-sheet", `url("${m.SHEET_URL}")`);
      emojiSheet.value = { url: m.SHEET_URL, cells: m.SHEET_CELLS, positions: m.SHEET_POSITIONS };
    },
    () => {
      loading = null;
    },
  );
  return loading;
}

/** Where a code's cell sits, as a CSS background-position, or null when the sheet has no image for it. */
export function spritePosition(sheet: EmojiSheet, code: string): string | null {
  const at = sheet.positions[code];
  if (at === undefined) return null;
  const step = 100 / (sheet.cells - 1);
  const pct = (n: number) => `${+(n * step).toFixed(4)}%`;
  return `${pct(at % sheet.cells)} ${pct(Math.floor(at / sheet.cells))}`;
}

/** A Unicode emoji from its code points ("" for a malformed code). */
export function emojiFromCode(code: string): string {
  try {
    return String.fromCodePoint(...code.split("-").map((h) => parseInt(h, 16)));
  } catch {
    return "";
  }
}

/**
 * Draws the emoji of a message's server HTML in the given mode; run again when the mode or the sheet
 * changes. A Unicode emoji keeps its `:name:` text (what copying takes, hidden behind the image); an
 * organization's emoji image is swapped for its `:name:` in text mode, as Zulip's web app does.
 */
export function drawMessageEmoji(root: HTMLElement, mode: EmojiMode, sheet: EmojiSheet | null): void {
  // Array.from: this module is also read by the server-side type check (test/web), whose DOM types are not iterable
  for (const el of Array.from(root.querySelectorAll<HTMLElement>("span.emoji"))) {
    const code = /\bemoji-([0-9a-f-]+)\b/.exec(el.className)?.[1];
    if (!code) continue;
    el.dataset.text ??= el.textContent ?? "";
    const position = mode === "google" && sheet ? spritePosition(sheet, code) : null;
    el.classList.toggle("emoji-sprite", position !== null);
    el.classList.toggle("emoji-as-text", mode === "text");
    el.style.backgroundPosition = position ?? "";
    el.textContent = mode === "text" || position !== null ? el.dataset.text : emojiFromCode(code) || el.dataset.text;
  }
  for (const img of Array.from(root.querySelectorAll<HTMLImageElement>("img.emoji"))) {
    const next = img.nextElementSibling;
    const alt = next?.classList.contains("emoji-alt") ? (next as HTMLElement) : null;
    img.hidden = mode === "text";
    if (mode === "text" && !alt) {
      const span = document.createElement("span");
      span.className = "emoji-alt";
      span.textContent = img.alt;
      img.after(span);
    } else if (mode !== "text") alt?.remove();
  }
}
