/**
 * A button that opens a small menu of actions (the topic, channel, message and personal menus). Keyboard:
 * arrows move between items, Escape closes and gives the focus back to the button.
 */
import type { ComponentChildren, JSX } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { MoreIcon } from "./icons";

export interface MenuItem {
  label: string;
  icon?: JSX.Element;
  /** a checked item in a group of choices */
  checked?: boolean;
  /** an action that destroys something (shown apart, in red) */
  danger?: boolean;
  onSelect(): void;
}

interface Props {
  /** what the button says to a screen reader ("Topic actions for lunch") */
  label: string;
  items: () => MenuItem[];
  class?: string;
  children?: ComponentChildren;
  /** open towards the left edge of the button (menus at the right side of the page) */
  alignEnd?: boolean;
}

export function MenuButton({ label, items, class: cls, children, alignEnd }: Props) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  // the first item takes the focus as soon as the menu is drawn (a key pressed at once lands in it);
  // a menu with no room below it (in its scrolled list, or the window) opens upwards when it fits there
  useLayoutEffect(() => {
    const el = menu.current;
    if (!open || !el) return;
    const box = el.getBoundingClientRect();
    const clip = el.parentElement?.closest<HTMLElement>(".message-scroller, .left-sidebar, .right-sidebar, .main-pane")?.getBoundingClientRect();
    const bottom = Math.min(innerHeight, clip?.bottom ?? innerHeight);
    const top = Math.max(0, clip?.top ?? 0);
    const anchor = button.current!.getBoundingClientRect();
    const below = bottom - anchor.bottom - 8;
    const above = anchor.top - top - 8;
    if (box.height > below) {
      const up = box.height <= above || above > below;
      if (up) el.classList.add("menu-up");
      // no room for all of it either way: it scrolls
      const room = Math.max(120, up ? above : below);
      if (box.height > room) Object.assign(el.style, { maxHeight: `${room}px`, overflowY: "auto" });
    }
    el.querySelector<HTMLElement>("[role^=menuitem]")?.focus({ preventScroll: true });
  }, [open]);
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (!menu.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    // Escape closes the menu wherever the focus is (the menu's own keys handle it inside)
    const escape = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      e.preventDefault();
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("pointerdown", outside);
    document.addEventListener("keydown", escape);
    return () => {
      document.removeEventListener("pointerdown", outside);
      document.removeEventListener("keydown", escape);
    };
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const entries = [...(menu.current?.querySelectorAll<HTMLElement>("[role^=menuitem]") ?? [])];
    const at = entries.indexOf(document.activeElement as HTMLElement);
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      entries[(at + step + entries.length) % entries.length]?.focus();
    } else if (e.key === "Tab") {
      close(false);
    }
  };

  return (
    <span class={`menu-anchor ${open ? "open" : ""} ${cls ?? ""}`}>
      <button
        ref={button}
        type="button"
        class="icon-button menu-button"
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={(e) => {
          e.stopPropagation();
          e.preventDefault();
          setOpen(!open);
        }}
      >
        {children ?? <MoreIcon size={16} />}
      </button>
      {open && (
        <div ref={menu} class={`menu ${alignEnd ? "menu-end" : ""}`} role="menu" aria-label={label} onKeyDown={onKeyDown} onClick={(e) => e.stopPropagation()}>
          {items().map((item) => (
            <button
              type="button"
              class={`menu-item ${item.danger ? "danger" : ""}`}
              role={item.checked === undefined ? "menuitem" : "menuitemradio"}
              aria-checked={item.checked}
              onClick={() => {
                close(true);
                item.onSelect();
              }}
            >
              {item.icon}
              <span>{item.label}</span>
              {item.checked && <span class="menu-check" aria-hidden="true">✓</span>}
            </button>
          ))}
        </div>
      )}
    </span>
  );
}
