/**
 * "Import from Slack or Zulip" on the owner's server page, offered while the organization has no
 * messages: the export is uploaded (a progress bar of the bytes sent), then the server imports it (a
 * progress bar of its counts, polled every second) and switches to the imported organization. This
 * session belongs to the replaced organization, so the outcome is read with the job's token, and the
 * page stays here (not the login screen) to show the summary and how to sign in.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { describeError, whenSignedOut } from "../../../api/http";
import { fetchImportOutcome, fetchImportStatus, uploadExport, type ImportOutcome, type ImportStatus } from "../../../api/web-import";
import { useId } from "../controls";
import { formatBytes } from "./format";

const TOKEN_KEY = "parley-import-token";
const fmt = (n: number) => n.toLocaleString();
const secs = (s: number) => (s < 90 ? `${s} s` : `${Math.ceil(s / 60)} min`);

type Phase = { kind: "form" } | { kind: "uploading"; sent: number; total: number } | { kind: "watching"; token: string; job: ImportOutcome | null };

export function ImportBox() {
  const [status, setStatus] = useState<ImportStatus | null>(null);
  const [phase, setPhase] = useState<Phase>(() => {
    const token = sessionStorage.getItem(TOKEN_KEY);
    return token ? { kind: "watching", token, job: null } : { kind: "form" };
  });
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    fetchImportStatus().then(setStatus, (e) => setError(describeError(e)));
  }, []);

  // while an import runs, the end of this session (the switch) must not take the page to the login screen
  const restore = useRef<(() => void) | null>(null);
  const holdPage = () => {
    if (!restore.current) restore.current = whenSignedOut(() => {});
  };
  const releasePage = () => {
    if (restore.current) whenSignedOut(restore.current);
    restore.current = null;
  };

  useEffect(() => {
    if (phase.kind !== "watching") return;
    holdPage();
    let stopped = false;
    const poll = async () => {
      try {
        const job = await fetchImportOutcome(phase.token);
        if (stopped) return;
        setPhase({ kind: "watching", token: phase.token, job });
        if (job.state === "running") return;
        clearInterval(timer);
        sessionStorage.removeItem(TOKEN_KEY);
        if (job.state !== "finished") {
          releasePage();
          setError(job.error);
          setPhase({ kind: "form" });
          fetchImportStatus().then(setStatus, () => {});
        }
      } catch {
        // the server answers 503 while it switches; the next poll asks again
      }
    };
    const timer = setInterval(() => void poll(), 1000);
    void poll();
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [phase.kind === "watching" ? phase.token : null]);

  const watching = phase.kind === "watching";
  if (!status && !watching) return null;
  const running = status?.import?.state === "running";
  // offered only before the first message; a server that cannot switch says why
  if (!watching && phase.kind !== "uploading" && !running && (!status || status.has_messages)) return null;

  return (
    <section class="settings-group import-box" aria-label="Import from Slack or Zulip">
      <h3>Import from Slack or Zulip</h3>
      {phase.kind === "form" && !running && !status?.can_import && <p class="setting-hint">{status?.refusal}</p>}
      {phase.kind === "form" && !running && status?.can_import && (
        <ImportForm
          maxSize={status?.max_size ?? 0}
          error={error ?? lastFailure(status)}
          onSubmit={async (form) => {
            setError(null);
            holdPage();
            setPhase({ kind: "uploading", sent: 0, total: 0 });
            try {
              const { token } = await uploadExport(form, (sent, total) => setPhase({ kind: "uploading", sent, total }));
              sessionStorage.setItem(TOKEN_KEY, token);
              setPhase({ kind: "watching", token, job: null });
            } catch (e) {
              releasePage();
              setError(describeError(e));
              setPhase({ kind: "form" });
            }
          }}
        />
      )}
      {phase.kind === "form" && running && <p role="status">Another import is under way (started by another owner).</p>}
      {phase.kind === "uploading" && (
        <div class="import-progress">
          <progress max={phase.total || 1} value={phase.sent} aria-label="Uploading the export" />
          <p role="status">{phase.total ? `Uploading: ${formatBytes(phase.sent)} of ${formatBytes(phase.total)}` : "Uploading…"}</p>
        </div>
      )}
      {phase.kind === "watching" && <Watching job={phase.job} />}
    </section>
  );
}

/** The previous import's failure or interruption (after a restart, say), until another is tried. */
function lastFailure(status: ImportStatus | null): string | null {
  const last = status?.import;
  if (!last || (last.state !== "failed" && last.state !== "interrupted")) return null;
  return `The last import (${last.file_name}) ${last.state === "failed" ? "failed" : "was interrupted"}: ${last.error ?? ""}`;
}

function ImportForm({ maxSize, error, onSubmit }: { maxSize: number; error: string | null; onSubmit(form: FormData): void }) {
  const id = useId("import");
  const [kind, setKind] = useState<"slack" | "zulip">("slack");
  const [problem, setProblem] = useState<string | null>(null);
  const shown = problem ?? error;
  return (
    <form
      class="import-form"
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget as HTMLFormElement);
        const file = form.get("file");
        if (!(file instanceof File) || !file.name) return setProblem("Choose the export file first.");
        if (maxSize && file.size > maxSize) return setProblem(`The export is larger than this server's limit of ${formatBytes(maxSize)}.`);
        if (kind !== "slack") form.delete("slack_token");
        setProblem(null);
        // the file goes last: the server reads the small fields first
        form.delete("file");
        form.append("file", file, file.name);
        onSubmit(form);
      }}
    >
      <p class="setting-hint">
        Bring your team's history along: the imported organization (its people, channels, messages, reactions and files) replaces this one, which has no messages yet. The
        current organization is kept in the data folder.
      </p>
      <fieldset class="import-kind">
        <legend>Export from</legend>
        <label>
          <input type="radio" name="kind" value="slack" checked={kind === "slack"} onChange={() => setKind("slack")} /> Slack (the .zip of “Export data”)
        </label>
        <label>
          <input type="radio" name="kind" value="zulip" checked={kind === "zulip"} onChange={() => setKind("zulip")} /> Zulip (the .tar.gz of an organization export)
        </label>
      </fieldset>
      <label for={`${id}-file`}>Export file</label>
      <input id={`${id}-file`} type="file" name="file" accept={kind === "slack" ? ".zip,application/zip" : ".tar.gz,.tgz,application/gzip"} aria-describedby={shown ? `${id}-error` : undefined} />
      {kind === "slack" && (
        <>
          <label for={`${id}-token`}>Slack token (optional)</label>
          <input id={`${id}-token`} type="password" name="slack_token" autocomplete="off" aria-describedby={`${id}-token-hint`} />
          <p class="setting-hint" id={`${id}-token-hint`}>
            With a token the messages' files are downloaded from Slack; without one they stay links to Slack.
          </p>
        </>
      )}
      <div class="setting-row">
        <button type="submit" class="button primary">
          Import
        </button>
      </div>
      {shown && (
        <p class="field-error" role="alert" id={`${id}-error`}>
          {shown}
        </p>
      )}
    </form>
  );
}

function Watching({ job }: { job: ImportOutcome | null }) {
  if (!job || job.state === "running") {
    const p = job?.progress;
    const switching = job?.stage === "switching";
    return (
      <div class="import-progress">
        <progress max={p?.total || 1} value={switching ? p?.total || 1 : (p?.done ?? 0)} aria-label="Import progress" />
        <p role="status">
          {switching
            ? "Switching the server to the imported organization…"
            : p && p.total
              ? `Importing: ${fmt(p.done)} of ${fmt(p.total)} ${p.label}${p.seconds_left !== null ? `, about ${secs(p.seconds_left)} left` : ""}`
              : "Reading the export…"}
        </p>
      </div>
    );
  }
  // finished: this page's session belonged to the organization that was replaced
  return (
    <div class="import-finished" role="status">
      <h4>Import finished</h4>
      <ul>
        {(job.summary ?? []).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {job.login && (
        <p>
          Sign in as <strong>{job.login.email}</strong>, the imported organization's owner:{" "}
          {job.login.url && (
            <>
              <a class="button primary" href={job.login.url}>
                Sign in with a one-time link
              </a>{" "}
              or{" "}
            </>
          )}
          use “Forgot password?” on the <a href="/">login page</a>. Everyone else signs in with “Forgot password?” too.
        </p>
      )}
      <p class="setting-hint">This page belonged to the organization that was replaced (kept in {job.replaced_dir}); its session has ended.</p>
    </div>
  );
}
