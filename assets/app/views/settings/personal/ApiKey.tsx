/**
 * The person's API key, as Zulip's web app shows it: only after the password is entered again
 * (POST /fetch_api_key), with a button for a new key (POST /users/me/api_key/regenerate, which stops the
 * old one working) and a `zuliprc` built here for Zulip's terminal tools and bots. The key is never kept
 * in the store; closing the section forgets it.
 */
import { useState } from "preact/hooks";
import { api, describeError } from "../../../api/http";
import { me, state, users } from "../../../state/store";
import { SaveError, SaveStatus, useId, useSaver } from "../controls";
import { download, zuliprc } from "../../../api/settings-calls";

export function ApiKey() {
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState("");
  const [key, setKey] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const regenerate = useSaver();
  const id = useId("api-key");
  const email = users.value[me.value]?.email ?? "";

  const show = async (e: Event) => {
    e.preventDefault();
    if (!password) return setError("Enter your password.");
    setBusy(true);
    setError(null);
    try {
      const r = await api<{ api_key: string }>("POST", "/fetch_api_key", { password });
      setKey(r.api_key);
      setPassword("");
    } catch (err) {
      setError(describeError(err));
    }
    setBusy(false);
  };

  if (key) {
    return (
      <div class="setting api-key" role="group" aria-labelledby={`${id}-label`}>
        <span class="setting-label" id={`${id}-label`}>
          Your API key
        </span>
        <code class="api-key-value">{key}</code>
        <p class="setting-hint">Anyone with this key can act as you. Keep it secret.</p>
        <div class="setting-row">
          <button type="button" class="button" onClick={() => download("zuliprc", zuliprc(email, key, location.origin))}>
            Download zuliprc
          </button>
          <button
            type="button"
            class="button subtle"
            disabled={regenerate.state.kind === "saving"}
            onClick={() => void regenerate.run(() => api<{ api_key: string }>("POST", "/users/me/api_key/regenerate").then((r) => setKey(r.api_key)))}
          >
            Generate a new API key
          </button>
          <SaveStatus state={regenerate.state} />
        </div>
        <SaveError state={regenerate.state} />
      </div>
    );
  }
  if (!asking) {
    return (
      <div class="setting">
        <span class="setting-label">API key</span>
        <div class="setting-row">
          <button type="button" class="button" onClick={() => setAsking(true)}>
            Manage your API key
          </button>
        </div>
      </div>
    );
  }
  return (
    <form class="setting" onSubmit={(e) => void show(e)}>
      <label for={id}>Your password, to show your API key</label>
      {/* for password managers: whose password this is */}
      <input type="text" autocomplete="username" value={state.value!.delivery_email} hidden readOnly />
      <div class="setting-row">
        <input id={id} type="password" autocomplete="current-password" value={password} disabled={busy} onInput={(e) => setPassword(e.currentTarget.value)} />
        <button type="submit" class="button primary" disabled={busy}>
          Show API key
        </button>
        <button type="button" class="button subtle" onClick={() => (setAsking(false), setError(null))}>
          Cancel
        </button>
      </div>
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
