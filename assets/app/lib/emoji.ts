/**
 * Emoji: Zulip's emoji names (fetched
 * once, when first needed, from the server's emoji data document and kept for the page's life; the
 * browser caches the document, whose URL changes with its content), and the person's frequently used
 * emoji (kept in this browser, as Zulip's web app does).
 */
import { signal } from "@preact/signals";
import type { RealmEmoji } from "../state/types";
import { POPULAR_EMOJI, type EmojiEntry } from "./emoji-match";


export type CodeToNames = Record<string, string[]>;

/** Zulip's emoji names by code point, once loaded (null until then). */
export const emojiNames = signal<CodeToNames | null>(null);
let loading: Promise<CodeToNames> | null = null;

/** Loads Zulip's emoji names (once). The server names an absolute URL; the path is fetched from this origin. */
export function loadEmojiNames(dataUrl: string): Promise<CodeToNames> {
  loading ??= (async () => {
    let path = dataUrl;
    try {
      path = new URL(dataUrl, location.href).pathname;
    } catch {
      // a relative path already
    }
    const res = await fetch(path, { credentials: "same-origin" });
    if (!res.ok) throw new Error(`The emoji names could not be loaded (${res.status}).`);
    const doc = (await res.json()) as { code_to_names: CodeToNames };
    emojiNames.value = doc.code_to_names;
    return doc.code_to_names;
  })().catch((e) => {
    loading = null;
    throw e;
  });
  return loading;
}

/** The name a code is known by first (its canonical name). */
export function nameOfCode(names: CodeToNames | null, code: string): string | undefined {
  return names?.[code]?.[0];
}

// Frequently used emoji, per person, in localStorage: "type:code:name" → uses.
const frequentKey = (me: number) => `parley.emoji.frequent.${me}`;

export function frequentEmoji(me: number): EmojiEntry[] {
  let counts: Record<string, number> = {};
  try {
    counts = JSON.parse(localStorage.getItem(frequentKey(me)) ?? "{}");
  } catch {
    // nothing kept, or unreadable
  }
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([k]) => {
      const [reaction_type, code, ...name] = k.split(":");
      return { reaction_type: reaction_type as EmojiEntry["reaction_type"], code: code!, name: name.join(":") };
    });
}

export function noteEmojiUse(me: number, e: Pick<EmojiEntry, "reaction_type" | "code" | "name">): void {
  try {
    const counts: Record<string, number> = JSON.parse(localStorage.getItem(frequentKey(me)) ?? "{}");
    const key = `${e.reaction_type}:${e.code}:${e.name}`;
    counts[key] = (counts[key] ?? 0) + 1;
    // keep the list short
    const kept = Object.entries(counts)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 24);
    localStorage.setItem(frequentKey(me), JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // storage full or off: the picker still works
  }
}

/** The frequently used row: the person's own, then Zulip's popular emoji to fill it. */
export function frequentRow(me: number, names: CodeToNames | null, realmEmoji: Record<string, RealmEmoji>, size = 12): EmojiEntry[] {
  const mine = frequentEmoji(me).filter((e) => e.reaction_type !== "realm_emoji" || (realmEmoji[e.code] && !realmEmoji[e.code]!.deactivated));
  const out = mine.map((e) => (e.reaction_type === "realm_emoji" ? { ...e, url: realmEmoji[e.code]!.source_url } : e));
  for (const code of POPULAR_EMOJI) {
    if (out.length >= size) break;
    const name = nameOfCode(names, code);
    if (name && !out.some((e) => e.reaction_type === "unicode_emoji" && e.code === code)) out.push({ name, code, reaction_type: "unicode_emoji" });
  }
  return out.slice(0, size);
}
