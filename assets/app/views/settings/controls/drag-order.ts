/**
 * Reordering a list by dragging its rows (as Zulip's sortable lists do), beside the Move up / Move down
 * buttons that keep it reachable from the keyboard: `rowProps(i)` goes on each row, and `onDrop(from, to)`
 * is called once when a row is dropped on another.
 */
import { useState } from "preact/hooks";

export function useDragOrder(onDrop: (from: number, to: number) => void) {
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const reset = () => {
    setDragging(null);
    setOver(null);
  };
  const rowProps = (index: number, enabled = true) =>
    enabled
      ? {
          draggable: true,
          onDragStart: (e: DragEvent) => {
            // a drag that starts in a field or on a button is that control's, not the row's
            if ((e.target as HTMLElement).closest?.("input, textarea, button, a")) return e.preventDefault();
            setDragging(index);
            if (e.dataTransfer) {
              e.dataTransfer.effectAllowed = "move";
              e.dataTransfer.setData("text/plain", String(index));
            }
          },
          onDragOver: (e: DragEvent) => {
            if (dragging === null) return;
            e.preventDefault();
            if (e.dataTransfer) e.dataTransfer.dropEffect = "move";
            if (over !== index) setOver(index);
          },
          onDrop: (e: DragEvent) => {
            e.preventDefault();
            if (dragging !== null && dragging !== index) onDrop(dragging, index);
            reset();
          },
          onDragEnd: reset,
          "data-drop-target": over === index && dragging !== null && dragging !== index ? (dragging < index ? "after" : "before") : undefined,
        }
      : {};
  return { rowProps, dragging };
}
