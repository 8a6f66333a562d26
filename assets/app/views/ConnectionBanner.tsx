/** Says when the server cannot be reached, counts down to the next try, and offers to try now. */
import { useEffect, useState } from "preact/hooks";
import { connection } from "../api/events";

export function ConnectionBanner({ onRetry }: { onRetry(): void }) {
  const c = connection.value;
  const [, tick] = useState(0);
  useEffect(() => {
    if (c.state !== "retrying") return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [c]);
  if (c.state === "connected") return <div class="banner-region" role="status" aria-live="polite" />;
  return (
    <div class="banner-region" role="status" aria-live="polite">
      <div class="connection-banner">
        {c.state === "reconnecting" ? (
          <span>Reconnecting to Parley…</span>
        ) : (
          <>
            <span>Can't reach Parley's server. Trying again in {Math.max(1, Math.ceil((c.retryAt - Date.now()) / 1000))} s…</span>
            <button type="button" class="link-button" onClick={onRetry}>
              Try now
            </button>
          </>
        )}
      </div>
    </div>
  );
}
