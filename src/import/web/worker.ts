// The import thread of the web import: the import (the same entry points the CLI calls) converts and
// writes for seconds to minutes, which on the server's own thread would hold every request meanwhile.
// Here it runs beside the server; progress, skipped items and the outcome come back as messages.
import type { Config } from "../../config/schema";
import { Progress } from "../common/progress";
import { ImportError } from "../common/problems";
import { importSlack } from "../slack/import";
import { importZulip } from "../zulip/import";

declare const self: Worker;

export interface ImportRequest {
  kind: "slack" | "zulip";
  config: Config;
  archive: string;
  slackToken: string | null;
  orgName: string;
}

export type ImportMessage =
  | { type: "start"; label: string; total: number }
  | { type: "advance"; n: number }
  | { type: "skip"; line: string }
  | { type: "done"; summary: string[]; owner: { id: number; email: string } }
  | { type: "error"; message: string; refusal: boolean };

const post = (m: ImportMessage) => self.postMessage(m);

/** Reports counts at most 10 times a second (each one a message to the server's thread). */
class PostedProgress extends Progress {
  private pending = 0;
  private last = 0;
  constructor() {
    super({ isTTY: false, write: () => true } as unknown as NodeJS.WriteStream);
  }
  override start(label: string, total: number) {
    this.flush();
    super.start(label, total);
    post({ type: "start", label, total });
  }
  override advance(n: number) {
    super.advance(n);
    this.pending += n;
    if (Date.now() - this.last >= 100) this.flush();
  }
  flush() {
    if (this.pending) post({ type: "advance", n: this.pending });
    this.pending = 0;
    this.last = Date.now();
  }
}

self.onmessage = async (e: MessageEvent<ImportRequest>) => {
  const req = e.data;
  const progress = new PostedProgress();
  const opts = { progress, log: (line: string) => post({ type: "skip", line }) };
  try {
    const result =
      req.kind === "slack"
        ? await importSlack(req.config, { ...opts, zip: req.archive, token: req.slackToken ?? undefined, orgName: req.orgName })
        : await importZulip(req.config, { ...opts, archive: req.archive });
    progress.flush();
    post({ type: "done", summary: result.summary, owner: { id: result.owner.id, email: result.owner.email } });
  } catch (err) {
    post({ type: "error", message: (err as Error)?.message ?? String(err), refusal: err instanceof ImportError });
  }
};
