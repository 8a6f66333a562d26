/** Says when the server cannot be reached (and when the network itself is down), counts down to the next try, and offers to try now. */
import { useEffect, useState } from "preact/hooks";
import { connection } from "../api/events";
import { online } from "../api/network";

export function ConnectionBanner({ onRetry }: { onRetry(): void }) {
  const c = connection.value;
  const offline = !online.value;
  const [, tick] = useState(0);
  useEffect(() => {
    if (c.state !== "retrying") return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [c]);
  // the network came back: try at once rather than at the end of the pause
  useEffect(() => {
    if (!offline && c.state === "retrying") onRetry();
  }, [offline]);
  if (c.state === "connected" && !offline) return <div class="banner-region" role="status" aria-live="polite" />;
  return (
    <div class="banner-region" role="status" aria-live="polite">
      <div class="connection-banner">
        {offline ? (
          <span>You're offline: Parley can't reach the server. It will try again when the network is back.</span>
        ) : c.state === "reconnecting" ? (
          <span>Reconnecting to Parley…</span>
        ) : (
          <>
            <span>Can't reach Parley's server. Trying again in {Math.max(1, Math.ceil((c.state === "retrying" ? c.retryAt - Date.now() : 0) / 1000))} s…</span>
            <button type="button" class="link-button" onClick={onRetry}>
              Try now
            </button>
          </>
        )}
      </div>
    </div>
  );
}
