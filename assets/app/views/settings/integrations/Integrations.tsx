/**
 * Integrations: pick a tool, an incoming-webhook bot (or create one), a channel and a topic, and copy the
 * ready URL with two lines on where to paste it; below, the last requests the bot received, with the
 * reason one did not post (GET /bots/{id}/webhook_requests), so an owner can see why a tool does not post.
 */
import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../../../api/http";
import { createBot } from "../../../api/settings-calls";
import { creatableBotTypes } from "../../../state/permissions";
import { state } from "../../../state/store";
import { useId } from "../controls";
import { freeBotPrefix, INTEGRATIONS, webhookUrl } from "./catalog";

interface WebhookRequest {
  id: number;
  integration: string;
  timestamp: number;
  event: string | null;
  status: number;
  error: string | null;
  payload: string;
}

function LastRequests({ botId }: { botId: number }) {
  const [requests, setRequests] = useState<WebhookRequest[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    api<{ requests: WebhookRequest[] }>("GET", `/bots/${botId}/webhook_requests`)
      .then((r) => (setRequests(r.requests), setError(null)))
      .catch((e) => setError(describeError(e)));
  useEffect(() => void load(), [botId]);
  return (
    <section class="webhook-requests" aria-labelledby="webhook-requests-title">
      <div class="setting-row">
        <h3 id="webhook-requests-title" class="settings-subhead">
          Last requests received
        </h3>
        <button type="button" class="button subtle" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
      {requests && !requests.length && <p class="muted-text">This bot has received nothing yet.</p>}
      {requests && requests.length > 0 && (
        <ul class="settings-list webhook-request-list" aria-label="Last requests received">
          {requests.map((r) => (
            <li key={r.id}>
              <p>
                <strong>{r.integration}</strong> · {new Date(r.timestamp * 1000).toLocaleString()}
                {r.event && ` · ${r.event}`} · {r.error ? <span class="field-error">{`${r.status}: ${r.error}`}</span> : <span>posted</span>}
              </p>
              <pre class="webhook-payload">{r.payload}</pre>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function Integrations() {
  const s = state.value!;
  const mine = Object.values(s.bots ?? {})
    .filter((b) => b.bot_type === 2 && b.is_active && b.owner_id === s.me)
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  const channels = Object.values(s.subscriptions)
    .map((c) => c.name)
    .sort((a, b) => a.localeCompare(b));
  const [integration, setIntegration] = useState(INTEGRATIONS[0]!.name);
  const [botId, setBotId] = useState<number | null>(mine[0]?.user_id ?? null);
  const [channel, setChannel] = useState(channels[0] ?? "");
  const [topic, setTopic] = useState("");
  // only_events: none ticked posts every event
  const [only, setOnly] = useState<string[]>([]);
  const [status, setStatus] = useState("");
  const [error, setError] = useState<string | null>(null);
  const ids = { integration: useId("integration"), bot: useId("integration-bot"), channel: useId("integration-channel"), topic: useId("integration-topic"), url: useId("integration-url") };
  const info = INTEGRATIONS.find((i) => i.name === integration)!;
  const bot = mine.find((b) => b.user_id === botId) ?? mine[0];
  const canCreate = creatableBotTypes(s).includes(2);
  const url = bot && channel ? webhookUrl(location.origin, integration, bot.api_key, channel, topic, only) : "";
  const toggle = (event: string, on: boolean) => setOnly((now) => (on ? [...now, event] : now.filter((e) => e !== event)));

  const create = () => {
    setError(null);
    const prefix = freeBotPrefix(integration, Object.values(s.bots ?? {}).map((b) => b.email));
    const taken = new Set(Object.values(s.users).map((u) => u.full_name));
    let name = `${info.label.split(" (")[0]} notifications`;
    for (let n = 2; taken.has(name); n++) name = `${info.label.split(" (")[0]} notifications ${n}`;
    createBot(name, prefix, 2)
      .then((r) => (setBotId(r.user_id), setStatus(`${name} was created.`)))
      .catch((e) => setError(describeError(e)));
  };
  const copy = () =>
    navigator.clipboard
      .writeText(url)
      .then(() => setStatus("The URL was copied."))
      .catch(() => setStatus("Copying was refused: select the URL and copy it."));

  return (
    <div class="settings-section integrations">
      <p class="setting-hint">Tools post into Parley at Zulip's integration URLs, as an incoming-webhook bot of yours.</p>
      <div class="setting">
        <label for={ids.integration}>Integration</label>
        <select id={ids.integration} value={integration} onChange={(e) => (setIntegration(e.currentTarget.value), setOnly([]))}>
          {INTEGRATIONS.map((i) => (
            <option key={i.name} value={i.name}>
              {i.label}
            </option>
          ))}
        </select>
      </div>
      <div class="setting">
        <label for={ids.bot}>Bot</label>
        <div class="setting-row">
          {mine.length > 0 && (
            <select id={ids.bot} value={String(bot?.user_id ?? "")} onChange={(e) => setBotId(Number(e.currentTarget.value))}>
              {mine.map((b) => (
                <option key={b.user_id} value={String(b.user_id)}>
                  {b.full_name}
                </option>
              ))}
            </select>
          )}
          {mine.length === 0 && (
            <span id={ids.bot} class="muted-text">
              You have no incoming-webhook bot yet.
            </span>
          )}
          {canCreate && (
            <button type="button" class="button" onClick={create}>
              Create a bot for {info.label.split(" (")[0]}
            </button>
          )}
        </div>
      </div>
      <div class="setting">
        <label for={ids.channel}>Channel</label>
        <select id={ids.channel} value={channel} onChange={(e) => setChannel(e.currentTarget.value)}>
          {channels.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>
      <div class="setting">
        <label for={ids.topic}>Topic (optional: the integration chooses one otherwise)</label>
        <input id={ids.topic} type="text" value={topic} maxLength={60} onInput={(e) => setTopic(e.currentTarget.value)} />
      </div>
      {info.events && (
        <details class="setting integration-events">
          <summary>Only some events{only.length ? ` (${only.length} chosen)` : ""}</summary>
          <fieldset class="group-choices">
            <legend>Events to post (none ticked: all of them)</legend>
            {info.events.map((event) => (
              <label key={event} class="check">
                <input type="checkbox" checked={only.includes(event)} onChange={(e) => toggle(event, e.currentTarget.checked)} />
                {event}
              </label>
            ))}
          </fieldset>
        </details>
      )}
      {url ? (
        <div class="setting">
          <label for={ids.url}>URL for {info.label.split(" (")[0]}</label>
          <div class="setting-row">
            <input id={ids.url} class="webhook-url" type="text" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
            <button type="button" class="button primary" onClick={() => void copy()}>
              Copy URL
            </button>
          </div>
          <p class="setting-hint">{info.where[0]}</p>
          <p class="setting-hint">{info.where[1]}</p>
        </div>
      ) : (
        <p class="muted-text">{channels.length ? "Choose or create a bot to get the URL." : "Subscribe to a channel to post into first."}</p>
      )}
      <p role="status" class="save-status saved">
        {status}
      </p>
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
      {bot && <LastRequests botId={bot.user_id} />}
    </div>
  );
}
