/**
 * Dialogs over the page (confirming a deletion, moving a topic, edit history, keyboard help,
 * notification settings, invitations). One at a time: `openDialog` shows it and remembers what had the focus;
 * closing gives the focus back there. Inside, Tab and Shift+Tab stay within the dialog and Escape
 * closes it. Rarely used dialogs are loaded when first opened (`openLazyDialog`).
 */
import { signal } from "@preact/signals";
import type { ComponentChildren, JSX } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { describeError } from "../api/http";
import { CloseIcon } from "./icons";
import { showNotice } from "./Notice";

interface Open {
  content: () => JSX.Element;
  opener: HTMLElement | null;
}

const current = signal<Open | null>(null);

export const dialogOpen = () => current.value !== null;

export function openDialog(content: () => JSX.Element): void {
  const active = document.activeElement as HTMLElement | null;
  // reopening from a dialog keeps the first opener, where the focus returns at the end
  current.value = { content, opener: current.peek()?.opener ?? (active && active !== document.body ? active : null) };
}

export function closeDialog(): void {
  const opener = current.peek()?.opener;
  current.value = null;
  if (opener?.isConnected) opener.focus();
}

/** Opens a dialog whose code is fetched on first use (kept out of the first load). */
export function openLazyDialog(load: () => Promise<() => JSX.Element>): void {
  const active = document.activeElement as HTMLElement | null;
  load().then(
    (content) => {
      // the focus may have moved while the code loaded: give it back to what opened the dialog
      if (active && active !== document.body && active.isConnected) active.focus();
      openDialog(content);
    },
    (e) => showNotice(`Could not open it: ${describeError(e)}`),
  );
}

export function DialogHost() {
  const open = current.value;
  return open ? open.content() : null;
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface Props {
  title: string;
  children: ComponentChildren;
  /** the buttons at the bottom */
  footer?: ComponentChildren;
  class?: string;
  /** what takes the focus first (a selector inside the dialog); the first field or button otherwise */
  initialFocus?: string;
  /** a dialog to read (no fields): its body takes the focus in turn, so the keyboard can scroll it */
  readable?: boolean;
}

export function Dialog({ title, children, footer, class: cls, initialFocus, readable }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const titleId = useRef(`dialog-title-${Math.random().toString(36).slice(2)}`).current;

  // the focus moves in as soon as the dialog is drawn (a key pressed at once lands in it)
  useLayoutEffect(() => {
    const el = box.current!;
    const first = (initialFocus && el.querySelector<HTMLElement>(initialFocus)) || el.querySelector<HTMLElement>(`.dialog-body ${FOCUSABLE}`) || el.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
  }, []);
  // Escape closes it wherever the focus is (inside, the dialog's own handler below does)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      e.preventDefault();
      closeDialog();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      closeDialog();
      return;
    }
    if (e.key !== "Tab") return;
    const items = [...box.current!.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((x) => x.offsetParent !== null || x === document.activeElement);
    if (!items.length) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (e.shiftKey && (document.activeElement === first || !box.current!.contains(document.activeElement))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (document.activeElement === last || !box.current!.contains(document.activeElement))) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <div class="dialog-backdrop" onPointerDown={(e) => e.target === e.currentTarget && closeDialog()}>
      <div ref={box} class={`dialog ${cls ?? ""}`} role="dialog" aria-modal="true" aria-labelledby={titleId} onKeyDown={onKeyDown}>
        <header class="dialog-head">
          <h2 id={titleId} class="dialog-title">
            {title}
          </h2>
          <button type="button" class="icon-button" aria-label="Close" onClick={closeDialog}>
            <CloseIcon />
          </button>
        </header>
        <div class="dialog-body" tabIndex={readable ? 0 : undefined} role={readable ? "document" : undefined}>
          {children}
        </div>
        {footer && <footer class="dialog-foot">{footer}</footer>}
      </div>
    </div>
  );
}

interface ConfirmProps {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  /** the action; a failure is shown in the dialog, which stays open */
  onConfirm(): Promise<unknown>;
}

/** A question with a confirm and a cancel button; the action runs on confirm and the dialog closes when it succeeds. */
export function ConfirmDialog({ title, children, confirmLabel, danger, onConfirm }: ConfirmProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = () => {
    setBusy(true);
    setError(null);
    onConfirm().then(
      () => closeDialog(),
      (e) => {
        setBusy(false);
        setError(describeError(e));
      },
    );
  };
  return (
    <Dialog
      title={title}
      initialFocus=".dialog-confirm"
      footer={
        <>
          <button type="button" class="button subtle" onClick={closeDialog}>
            Cancel
          </button>
          <button type="button" class={`button ${danger ? "danger" : "primary"} dialog-confirm`} disabled={busy} onClick={run}>
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
      {error && (
        <p class="dialog-error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}

interface FormProps {
  title: string;
  class: string;
  initialFocus?: string;
  /** the form's id, which the footer's submit button names */
  formId: string;
  submitLabel: string;
  /** the submit button's label while the work runs */
  busyLabel: string;
  busy: boolean;
  /** what the form says went wrong, under its fields */
  error: string | null;
  onSubmit(): void;
  children: ComponentChildren;
}

/** A dialog holding one form: Cancel and the submit button below it, the error line at the form's end. */
export function FormDialog({ title, class: cls, initialFocus, formId, submitLabel, busyLabel, busy, error, onSubmit, children }: FormProps) {
  return (
    <Dialog
      title={title}
      class={cls}
      initialFocus={initialFocus}
      footer={
        <>
          <button type="button" class="button subtle" onClick={closeDialog}>
            Cancel
          </button>
          <button type="submit" form={formId} class="button primary" disabled={busy}>
            {busy ? busyLabel : submitLabel}
          </button>
        </>
      }
    >
      <form
        id={formId}
        class="dialog-form"
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        {children}
        {error && (
          <p class="dialog-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </Dialog>
  );
}
