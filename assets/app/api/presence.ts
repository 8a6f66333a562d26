/**
 * The person's own presence, reported as Zulip's web app does: POST /users/me/presence once a minute
 * (the server's ping interval) with "active" while they use the page and "idle" once the tab is hidden
 * or nothing was typed, clicked or scrolled for five minutes; `new_user_input` tells whether they did
 * anything since the last report. The answer carries everyone's presence changes since the last one.
 */
import { api } from "./http";

const IDLE_AFTER_MS = 5 * 60_000;

type Presences = Record<string, { active_timestamp: number; idle_timestamp: number }>;

export interface PresenceHooks {
  intervalSeconds: number;
  onPresences(presences: Presences): void;
}

export function startPresence(hooks: PresenceHooks): () => void {
  let lastInput = Date.now();
  let inputSinceReport = true;
  let lastUpdateId = -1;
  let lastStatus = "";
  const status = () => (document.visibilityState === "visible" && Date.now() - lastInput < IDLE_AFTER_MS ? "active" : "idle");

  async function report() {
    const now = status();
    lastStatus = now;
    const newInput = inputSinceReport;
    inputSinceReport = false;
    try {
      const r = await api<{ presences?: Presences; presence_last_update_id?: number }>("POST", "/users/me/presence", {
        status: now,
        ping_only: false,
        new_user_input: newInput,
        slim_presence: true,
        last_update_id: lastUpdateId,
      });
      if (typeof r.presence_last_update_id === "number") lastUpdateId = r.presence_last_update_id;
      if (r.presences) hooks.onPresences(r.presences);
    } catch {
      // the event loop shows connection trouble; the next report tries again
    }
  }

  const onInput = () => {
    lastInput = Date.now();
    inputSinceReport = true;
    // back from idle: say so now rather than at the next tick
    if (lastStatus === "idle" && status() === "active") void report();
  };
  const onVisibility = () => {
    if (document.visibilityState === "visible") onInput();
    else if (lastStatus === "active") void report();
  };
  const inputs = ["keydown", "pointerdown", "wheel", "touchstart", "focus"] as const;
  for (const t of inputs) addEventListener(t, onInput, { passive: true });
  document.addEventListener("visibilitychange", onVisibility);
  const timer = setInterval(report, Math.max(10, hooks.intervalSeconds) * 1000);
  void report();
  return () => {
    clearInterval(timer);
    for (const t of inputs) removeEventListener(t, onInput);
    document.removeEventListener("visibilitychange", onVisibility);
  };
}
