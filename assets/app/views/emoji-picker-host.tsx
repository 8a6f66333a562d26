/**
 * Where the emoji picker opens: over the page, beside what opened it (a message's reaction button, the
 * compose box's emoji button). The picker itself (EmojiPicker.tsx) loads on first use, with Zulip's
 * emoji names.
 */
import { signal } from "@preact/signals";
import type { ComponentType } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { loadEmojiNames } from "../lib/emoji";
import type { EmojiEntry } from "../lib/emoji-match";
import type { EmojiPickerProps } from "./EmojiPicker";
import { realm } from "../state/store";
import { showNotice } from "./Notice";

export interface PickerRequest {
  /** what opened it: the picker sits beside it, and the focus returns there */
  anchor: HTMLElement;
  /** what the picker is for ("Add a reaction to this message") */
  label: string;
  onPick(e: EmojiEntry): void;
}

export const pickerRequest = signal<PickerRequest | null>(null);

export function openEmojiPicker(req: PickerRequest): void {
  pickerRequest.value = pickerRequest.peek()?.anchor === req.anchor ? null : req;
  void loadEmojiNames(realm.peek().emoji_data_url).catch((e) => showNotice(String(e.message ?? e)));
}

export function closeEmojiPicker(refocus = true): void {
  const req = pickerRequest.peek();
  pickerRequest.value = null;
  if (refocus && req?.anchor.isConnected) req.anchor.focus();
}

const WIDTH = 352;
const HEIGHT = 400;

export function EmojiPickerHost() {
  const req = pickerRequest.value;
  const [Picker, setPicker] = useState<ComponentType<EmojiPickerProps> | null>(null);
  const [place, setPlace] = useState<{ left: number; top: number } | null>(null);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (req && !Picker) import("./EmojiPicker").then((m) => setPicker(() => m.EmojiPicker));
  }, [req, Picker]);

  useLayoutEffect(() => {
    if (!req) return;
    const r = req.anchor.getBoundingClientRect();
    const below = r.bottom + 6 + HEIGHT <= innerHeight;
    const top = below ? r.bottom + 6 : Math.max(8, r.top - 6 - HEIGHT);
    const left = Math.min(Math.max(8, r.right - WIDTH), innerWidth - WIDTH - 8);
    setPlace({ left: Math.max(8, left), top });
  }, [req]);

  useEffect(() => {
    if (!req) return;
    const outside = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node) && !req.anchor.contains(e.target as Node)) closeEmojiPicker(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [req]);

  if (!req || !place) return null;
  return (
    <div ref={box} class="emoji-popover" style={{ left: `${place.left}px`, top: `${place.top}px` }}>
      {Picker ? (
        <Picker
          label={req.label}
          onPick={(e) => {
            closeEmojiPicker();
            req.onPick(e);
          }}
          onClose={() => closeEmojiPicker()}
        />
      ) : (
        <div class="emoji-picker-loading">Loading emoji…</div>
      )}
    </div>
  );
}
