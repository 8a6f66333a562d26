/**
 * The owner's server page: this installation's version, where its data lives and how big it is, its
 * backups (the newest, "Back up now", a download of the newest archive) and whether email and push are
 * set up. Read from GET /json/parley/server when opened; owners only (the server refuses anyone else).
 */
import { useEffect, useState } from "preact/hooks";
import { describeError } from "../../../api/http";
import { backUpNow, fetchServerFacts, LATEST_BACKUP_URL, updateOrg, type ServerFacts } from "../../../api/org";
import { SaveError, SaveStatus, Toggle, useSaver } from "../controls";
import { formatBytes } from "./format";
import { ImportBox } from "./ImportBox";

const when = (secs: number) => new Date(secs * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

function Facts({ f }: { f: ServerFacts }) {
  const b = f.backups;
  return (
    <>
      <section class="settings-group" aria-label="This server">
        <h3>This server</h3>
        <dl class="facts">
          <dt>Version</dt>
          <dd>
            Parley {f.version} (Zulip API feature level {f.zulip_feature_level})
          </dd>
          <dt>Data folder</dt>
          <dd>
            <code>{f.data_dir}</code>
          </dd>
          <dt>Database</dt>
          <dd>
            {formatBytes(f.database.size)} {f.database.embedded ? "in" : "on"} <code>{f.database.location}</code>
          </dd>
          <dt>Uploaded files</dt>
          <dd>
            {f.uploads.files} {f.uploads.files === 1 ? "file" : "files"}, {formatBytes(f.uploads.size)}
          </dd>
          <dt>Email</dt>
          <dd>{f.email.configured ? `Set up: sent as ${f.email.from}` : "Off: emails go to the log file (set [email] smtp_url to send them)"}</dd>
          <dt>Browser notifications (Web Push)</dt>
          <dd>{f.web_push.keys ? "Set up: this server's keys are in vapid.json in the data folder" : "Not set up yet: the server makes its keys when Web Push is first used"}</dd>
          <dt>Mobile push notifications</dt>
          <dd>{f.push.relay_configured ? "Set up through the push relay" : "Off (set [push] relay_url to send them)"}</dd>
        </dl>
      </section>
      <section class="settings-group" aria-label="Backups">
        <h3>Backups</h3>
        <dl class="facts">
          <dt>Automatic backups</dt>
          <dd>{b.automatic ? `Every ${b.every_hours} hours into ${b.dir}, keeping the newest ${b.keep}` : `Off (set [backup] dir to make them); "Back up now" writes to ${b.dir}`}</dd>
          <dt>Latest backup</dt>
          <dd class="latest-backup">{b.latest ? `${when(b.latest.timestamp)}, ${formatBytes(b.latest.size)} (${b.latest.name})` : "None yet"}</dd>
          {b.last_failure_timestamp !== null && (
            <>
              <dt>Last failure</dt>
              <dd>{when(b.last_failure_timestamp)}: see the server's log</dd>
            </>
          )}
        </dl>
      </section>
    </>
  );
}

/**
 * Parley's two switches for people without an account: web-public channels at all (Zulip keeps that
 * in the server's settings file, WEB_PUBLIC_STREAMS_ENABLED) and the user list without logging in.
 */
const PUBLIC_SWITCHES: { name: keyof ServerFacts["public_access"]; label: string; hint: string }[] = [
  {
    name: "web_public_streams_enabled",
    label: "Allow web-public channels on this server",
    hint: "When this is off, no channel can be read without an account, whatever the organization's permissions say.",
  },
  {
    name: "allow_public_access",
    label: "Let anyone list the organization's users without logging in",
    hint: "Zulip's apps read the user list this way before logging in (GET /users).",
  },
];

function PublicAccess({ f, reload }: { f: ServerFacts["public_access"]; reload: () => Promise<void> }) {
  return (
    <section class="settings-group" aria-label="Reading without an account">
      <h3>Reading without an account</h3>
      {PUBLIC_SWITCHES.map((w) => (
        <Toggle
          key={w.name}
          name={w.name}
          label={w.label}
          checked={f[w.name]}
          hint={w.hint}
          onSave={async (next) => {
            await updateOrg({ [w.name]: next });
            await reload();
          }}
        />
      ))}
    </section>
  );
}

export function ServerPage() {
  const [facts, setFacts] = useState<ServerFacts | null>(null);
  const [error, setError] = useState<string | null>(null);
  const saver = useSaver();
  const load = () =>
    fetchServerFacts().then(
      (f) => {
        setFacts(f);
        setError(null);
      },
      (e) => setError(describeError(e)),
    );
  useEffect(() => void load(), []);
  if (error) return <p class="field-error" role="alert">{`Could not read the server's facts: ${error}`}</p>;
  if (!facts) return <p class="muted-text">Loading…</p>;
  return (
    <div class="settings-section server-page">
      <Facts f={facts} />
      <div class="setting-row">
        <button
          type="button"
          class="button primary"
          disabled={saver.state.kind === "saving"}
          onClick={() =>
            void saver.run(async () => {
              await backUpNow();
              await load();
            })
          }
        >
          {saver.state.kind === "saving" ? "Backing up…" : "Back up now"}
        </button>
        {facts.backups.latest && (
          <a class="button" href={LATEST_BACKUP_URL} download={facts.backups.latest.name}>
            Download the latest backup
          </a>
        )}
        <SaveStatus state={saver.state} />
      </div>
      <SaveError state={saver.state} />
      <p class="setting-hint">A backup holds the whole organization: messages, uploads, and everyone's password hashes and API keys. Keep the archive somewhere safe. Restore it with <code>parley restore</code>.</p>
      <PublicAccess f={facts.public_access} reload={load} />
      <ImportBox />
    </div>
  );
}
