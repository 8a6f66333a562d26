import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { ZulipError } from "../../src/errors";
import { run } from "./run";

/** Each integration with the event headers it reads (one of several values each run). */
const HEADERS: Record<string, [string, string[]] | null> = {
  json: null,
  slack_incoming: null,
  github: ["X-GitHub-Event", ["push", "pull_request", "issues", "issue_comment", "pull_request_review", "release", "create", "delete", "check_run", "ping", "team", "status", "gollum", "page_build", "star", "fork"]],
  gitlab: ["X-GitLab-Event", ["Push Hook", "Tag Push Hook", "Merge Request Hook", "Issue Hook", "Note Hook", "Pipeline Hook", "Job Hook", "Release Hook", "Deployment Hook", "System Hook"]],
  gitea: ["X-Gitea-Event", ["push", "create", "pull_request", "issues", "issue_comment", "release"]],
  grafana: null,
  alertmanager: null,
  homeassistant: null,
  sentry: null,
};

/** JSON that looks a little like what the tools send: their keys, at random, with values of any type. */
const KEYS = ["action", "ref", "commits", "pull_request", "issue", "repository", "sender", "alerts", "labels", "status", "data", "event", "title", "text", "blocks", "attachments", "object_attributes", "user", "project", "message", "state", "release", "comment", "exception", "url"];
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, fc.constant(null), fc.boolean(), fc.integer(), fc.double(), fc.string(), fc.array(tie("value"), { maxLength: 3 }), fc.dictionary(fc.constantFrom(...KEYS), tie("value"), { maxKeys: 6 })),
}));

describe("hostile payloads", () => {
  for (const [name, header] of Object.entries(HEADERS)) {
    test(`${name}: any JSON either makes messages or is refused with Zulip's error, never a crash`, () => {
      fc.assert(
        fc.property(value, fc.nat(), (payload, pick) => {
          const headers = header ? { [header[0]]: header[1][pick % header[1].length]! } : {};
          try {
            for (const m of run(name, payload, headers)) expect(typeof m.topic === "string" && typeof m.body === "string").toBe(true);
          } catch (e) {
            if (!(e instanceof ZulipError)) throw e;
          }
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
      );
    });
  }
});
