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
