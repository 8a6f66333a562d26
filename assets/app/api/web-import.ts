/**
 * Importing a Slack or Zulip export from the owner's server page: the upload (an XHR, for its upload
 * progress), the status, and the uploader's view of the outcome, read with the job's token (it also
 * works after the server switched to the imported organization and this session no longer exists).
 */
import { api, ApiError, csrfToken, NetworkError } from "./http";

export interface ImportJob {
  id: number;
  kind: "slack" | "zulip";
  state: "running" | "finished" | "failed" | "interrupted";
  stage: "receiving" | "importing" | "switching" | null;
  progress: { label: string; done: number; total: number; per_second: number; seconds_left: number | null } | null;
  skipped: string[];
  file_name: string;
  file_size: number;
  error: string | null;
  summary: string[] | null;
  started_timestamp: number;
  finished_timestamp: number | null;
}
export interface ImportOutcome extends ImportJob {
  login: { email: string; url: string | null } | null;
  replaced_dir: string | null;
}
export interface ImportStatus {
  import: ImportJob | null;
  can_import: boolean;
  refusal: string | null;
  has_messages: boolean;
  max_size: number;
}

export const fetchImportStatus = () => api<ImportStatus>("GET", "/parley/import");
export const fetchImportOutcome = (token: string) => api<{ import: ImportOutcome }>("GET", "/parley/import/outcome", { token }).then((r) => r.import);

/** Sends the export; `onProgress` hears the bytes sent. Answers with the job's token. */
export function uploadExport(form: FormData, onProgress: (sent: number, total: number) => void): Promise<{ job_id: number; token: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/json/parley/import");
    xhr.setRequestHeader("X-CSRFToken", csrfToken());
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : 0);
    xhr.onerror = () => reject(new NetworkError("Parley's server cannot be reached."));
    xhr.onload = () => {
      let body: { result?: string; msg?: string; code?: string; job_id?: number; token?: string };
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        return reject(new NetworkError(`Parley's server answered with an error (${xhr.status}).`));
      }
      if (body.result === "success") resolve({ job_id: body.job_id!, token: body.token! });
      else reject(new ApiError(body.msg ?? "The upload failed", body.code ?? "BAD_REQUEST", xhr.status));
    };
    xhr.send(form);
  });
}
