/** An image from a message, large, over the page; Escape, the close button or a click outside closes it. */
import { signal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { CloseIcon } from "./icons";

export const lightbox = signal<{ src: string; title: string; href: string; opener: HTMLElement | null } | null>(null);

export function Lightbox() {
  const shown = lightbox.value;
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!shown) return;
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") dismiss();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [shown]);
  if (!shown) return null;
  function dismiss() {
    const opener = lightbox.value?.opener;
    lightbox.value = null;
    opener?.focus();
  }
  return (
    <div class="lightbox" role="dialog" aria-modal="true" aria-label={shown.title || "Image"} onClick={(e) => e.target === e.currentTarget && dismiss()}>
      <div class="lightbox-bar">
        <span class="lightbox-title">{shown.title}</span>
        <a class="lightbox-open" href={shown.href} target="_blank" rel="noopener noreferrer">
          Open original
        </a>
        <button ref={close} type="button" class="icon-button" aria-label="Close" onClick={dismiss}>
          <CloseIcon />
        </button>
      </div>
      <img class="lightbox-image" src={shown.src} alt={shown.title} onClick={(e) => e.stopPropagation()} />
    </div>
  );
}

/** Opens the lightbox for a `.message_inline_image` link that was clicked. */
export function openImage(link: HTMLAnchorElement): void {
  const img = link.querySelector("img");
  const href = link.href;
  const title = link.title || decodeURIComponent(href.split("/").pop() ?? "");
  lightbox.value = { src: href || img?.src || "", title, href, opener: link };
}
