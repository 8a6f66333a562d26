/** Whether the browser believes it has a network (navigator.onLine and its online/offline events). */
import { signal } from "@preact/signals";

export const online = signal(typeof navigator === "undefined" ? true : navigator.onLine);

if (typeof window !== "undefined") {
  window.addEventListener("online", () => (online.value = true));
  window.addEventListener("offline", () => (online.value = false));
}
