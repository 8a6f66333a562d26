/** Parts of the page the first paint can do without: drawn in the task after the page's first frame. */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";

/** Once the page has been painted, later mounts draw at once (no blank frame when a part comes back). */
let painted = false;

/**
 * Draws `children` after the first paint (Preact runs effects after the frame is drawn), so the first frame
 * lays out only what is needed to read: a large organization's people list is hundreds of elements.
 */
export function AfterFirstPaint({ children }: { children: ComponentChildren }) {
  const [ready, setReady] = useState(painted);
  useEffect(() => {
    if (ready) return;
    painted = true;
    setReady(true);
  }, []);
  return ready ? <>{children}</> : null;
}

/**
 * Runs `fn` in a task after the next frame has been painted (the frame's callbacks, then a message), so
 * what it draws waits for the next frame; a hidden page draws no frames, so there it runs in the next task.
 * Returns a cancel.
 */
export function afterNextPaint(fn: () => void): () => void {
  let live = true;
  const run = () => live && fn();
  if (document.visibilityState === "hidden") {
    const timer = setTimeout(run, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = run;
    channel.port2.postMessage(null);
  });
  return () => {
    live = false;
    cancelAnimationFrame(frame);
  };
}

/**
 * Runs `fn` once the next frame has been painted and the page is idle (at most `timeout` ms after that
 * paint): for work nobody waits for, so it does not hold up what the frame's first tasks do (input, the
 * parts drawn after the first paint). Returns a cancel.
 */
export function whenIdleAfterPaint(fn: () => void, timeout: number): () => void {
  let idle: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const cancelPaint = afterNextPaint(() => {
    if (typeof requestIdleCallback === "function") idle = requestIdleCallback(() => fn(), { timeout });
    else timer = setTimeout(fn, 0);
  });
  return () => {
    cancelPaint();
    if (idle !== null) cancelIdleCallback(idle);
    if (timer !== null) clearTimeout(timer);
  };
}
