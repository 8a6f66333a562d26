import { describe, expect, test } from "bun:test";
import { INTEGRATIONS, Wild } from "../../src/webhooks";
import { one, run } from "./run";
import * as f from "./fixtures/github";

const gh = (event: string, payload: unknown, params: Record<string, string> = {}) => one("github", payload, { "X-GitHub-Event": event }, params);
const ghAll = (event: string, payload: unknown, params: Record<string, string> = {}) => run("github", payload, { "X-GitHub-Event": event }, params);
const SHA = (i: number) => `${i}`.padStart(2, "0") + "a1b2c3d4e";

describe("github: push", () => {
  test("a push by its author lists the commits under the branch's topic", () => {
    const m = gh("push", f.push(2));
    expect(m.topic).toBe("parley / main");
    expect(m.event).toBe("push_commits");
    expect(m.body).toBe(
      "octocat [pushed](https://github.com/octo-org/parley/compare/6113728f27ae...0d1a26e67d8f) 2 commits to branch main.\n\n" +
        `* Change number 1 ([${SHA(1)}](https://github.com/octo-org/parley/commit/1a1b2c3d4e5f6))\n* Change number 2 ([${SHA(2)}](https://github.com/octo-org/parley/commit/2a1b2c3d4e5f6))`,
    );
  });

  test("more than 20 commits: 20 listed, then how many more; several committers are counted, the fourth on as others", () => {
    const authors = ["ann", "bob", "cid", "dee", "eve"].map((n) => ({ name: n, email: `${n}@x`, username: n }));
    const m = gh("push", f.push(50, {}, authors));
    const lines = m.body.split("\n");
    expect(lines[0]).toBe("octocat [pushed](https://github.com/octo-org/parley/compare/6113728f27ae...0d1a26e67d8f) 50 commits to branch main. Commits by ann (10), bob (10), cid (10) and others (20).");
    expect(lines.filter((l) => l.startsWith("* "))).toHaveLength(20);
    expect(lines.at(-1)).toBe("[and 30 more commit(s)]");
  });

  test("a forced push, a deleted branch, a new branch without commits, and a tag push", () => {
    expect(gh("push", f.push(1, { forced: true })).body.startsWith("octocat [force pushed](https://github.com/octo-org/parley/compare/6113728f27ae...0d1a26e67d8f) 1 commit to branch main.")).toBe(true);
    expect(gh("push", f.push(0, { deleted: true })).body).toBe("octocat [deleted](https://github.com/octo-org/parley/compare/6113728f27ae...0d1a26e67d8f) the branch main.");
    expect(gh("push", f.push(0, { created: true })).body).toBe("octocat [pushed](https://github.com/octo-org/parley/compare/6113728f27ae...0d1a26e67d8f) the branch main.");
    const tag = gh("push", f.push(0, { ref: "refs/tags/v1.0", created: true }));
    expect(tag).toEqual({ topic: "parley", body: "octocat pushed tag v1.0.", event: "push_tags" });
    expect(gh("push", f.push(0, { ref: "refs/tags/v1.0", created: false, deleted: true })).body).toBe("octocat removed tag v1.0.");
  });

  test("branches= keeps pushes to other branches out; merge-queue pushes are ignored", () => {
    expect(ghAll("push", f.push(1), { branches: "dev,release" })).toEqual([]);
    expect(ghAll("push", f.push(1), { branches: "dev,main" })).toHaveLength(1);
    expect(ghAll("push", f.push(1, { ref: "refs/heads/gh-readonly-queue/main/pr-1" }))).toEqual([]);
  });
});

describe("github: pull requests", () => {
  const topic = "parley / PR #42 Add webhooks";
  test("opened: branches and the description quoted", () => {
    expect(gh("pull_request", f.pullRequest("opened"))).toEqual({
      topic,
      event: "opened_pull_request",
      body: "octocat opened [PR #42](https://github.com/octo-org/parley/pull/42) from `octocat:webhooks` to `octo-org:main`:\n\n~~~ quote\nThis adds incoming webhooks.\n~~~",
    });
  });

  test("with a topic in the URL the title goes into the message", () => {
    expect(gh("pull_request", f.pullRequest("reopened"), { topic: "mine" }).body).toBe("octocat reopened [PR #42 Add webhooks](https://github.com/octo-org/parley/pull/42).");
  });

  test("synchronize is 'updated', with the assignee named", () => {
    expect(gh("pull_request", f.pullRequest("synchronize", {}, { assignee: { login: "hubot" } })).body).toBe("octocat updated [PR #42](https://github.com/octo-org/parley/pull/42) (assigned to hubot).");
  });

  test("closed: merged or closed without merge", () => {
    expect(gh("pull_request", f.pullRequest("closed", {}, { merged: true })).body).toBe("octocat merged [PR #42](https://github.com/octo-org/parley/pull/42).");
    expect(gh("pull_request", f.pullRequest("closed")).body).toBe("octocat closed without merge [PR #42](https://github.com/octo-org/parley/pull/42).");
  });

  test("assigned, review requested, ready for review, locked, auto-merge", () => {
    expect(gh("pull_request", f.pullRequest("assigned", { assignee: { login: "hubot" } }, { assignee: { login: "hubot" } })).body).toBe("octocat assigned hubot to [PR #42](https://github.com/octo-org/parley/pull/42).");
    expect(gh("pull_request", f.pullRequest("unassigned", { assignee: { login: "hubot" } })).body).toBe("octocat unassigned hubot from [PR #42](https://github.com/octo-org/parley/pull/42).");
    expect(gh("pull_request", f.pullRequest("review_requested", { requested_reviewer: { login: "hubot", html_url: "https://github.com/hubot" } })).body).toBe(
      "**octocat** requested [hubot](https://github.com/hubot) for a review on [PR #42](https://github.com/octo-org/parley/pull/42).",
    );
    expect(gh("pull_request", f.pullRequest("review_requested", { requested_team: { name: "core", html_url: "https://github.com/orgs/octo-org/teams/core" } })).body).toContain("requested [core](https://github.com/orgs/octo-org/teams/core)");
    expect(gh("pull_request", f.pullRequest("ready_for_review")).body).toBe("**octocat** has marked [PR #42](https://github.com/octo-org/parley/pull/42) as ready for review.");
    expect(gh("pull_request", f.pullRequest("locked", {}, { active_lock_reason: "too heated" })).body).toBe(
      "octocat has locked [PR #42](https://github.com/octo-org/parley/pull/42) as too heated and limited conversation to collaborators.",
    );
    expect(gh("pull_request", f.pullRequest("unlocked")).body).toBe("octocat has unlocked [PR #42](https://github.com/octo-org/parley/pull/42).");
    expect(gh("pull_request", f.pullRequest("auto_merge_enabled")).body).toBe("octocat has enabled auto merge for [PR #42](https://github.com/octo-org/parley/pull/42).");
  });

  test("labeled, converted to draft and the like are ignored", () => {
    for (const action of ["labeled", "unlabeled", "converted_to_draft", "review_request_removed"]) expect(ghAll("pull_request", f.pullRequest(action))).toEqual([]);
  });

  test("reviews and review comments", () => {
    expect(gh("pull_request_review", f.review)).toEqual({
      topic,
      event: "pull_request_review",
      body: "octocat submitted [PR review](https://github.com/octo-org/parley/pull/42#pullrequestreview-80):\n\n~~~ quote\nLooks good, one nit.\n~~~",
    });
    expect(gh("pull_request_review", f.review, { topic: "x" }).body.split("\n")[0]).toBe("octocat submitted [PR review for #42 Add webhooks](https://github.com/octo-org/parley/pull/42#pullrequestreview-80):");
    expect(gh("pull_request_review_comment", f.reviewComment).body).toBe("octocat created [PR review comment](https://github.com/octo-org/parley/pull/42#discussion_r81):\n\n~~~ quote\nRename this?\n~~~");
  });
});

describe("github: issues and comments", () => {
  const topic = "parley / issue #7 Webhooks drop events";
  test("opened, with the body quoted, under the issue's topic", () => {
    expect(gh("issues", f.issue("opened"))).toEqual({
      topic,
      event: "issues",
      body: "octocat opened [issue #7](https://github.com/octo-org/parley/issues/7):\n\n~~~ quote\nSteps to reproduce: post twice.\n~~~",
    });
  });

  test("assigned and unassigned name who; closed has no quote when the body is empty", () => {
    expect(gh("issues", f.issue("assigned", { assignee: { login: "hubot" } })).body).toBe("octocat assigned hubot to [issue #7](https://github.com/octo-org/parley/issues/7).");
    expect(gh("issues", f.issue("unassigned", { assignee: { login: "hubot" } })).body).toBe("octocat unassigned hubot from [issue #7](https://github.com/octo-org/parley/issues/7).");
    expect(gh("issues", f.issue("closed", {}, { body: null })).body).toBe("octocat closed [issue #7](https://github.com/octo-org/parley/issues/7).");
  });

  test("labels and milestones", () => {
    expect(gh("issues", f.issue("labeled", { label: { name: "bug" } })).body).toBe("[octocat](https://github.com/octocat) added the bug label to [Issue #7](https://github.com/octo-org/parley/issues/7).");
    expect(gh("issues", f.issue("unlabeled", { label: { name: "bug" } }), { topic: "t" }).body).toBe(
      "[octocat](https://github.com/octocat) removed the bug label from [Issue #7 Webhooks drop events](https://github.com/octo-org/parley/issues/7).",
    );
    expect(gh("issues", f.issue("milestoned", { milestone: { title: "1.0", html_url: "https://github.com/octo-org/parley/milestone/1" } })).body).toBe(
      "[octocat](https://github.com/octocat) added milestone [1.0](https://github.com/octo-org/parley/milestone/1) to [issue #7](https://github.com/octo-org/parley/issues/7).",
    );
  });

  test("a comment on an issue, and one on a pull request (its topic says PR)", () => {
    expect(gh("issue_comment", f.comment("issue"))).toEqual({
      topic,
      event: "issue_comment",
      body: "octocat [commented](https://github.com/octo-org/parley/issues/7#issuecomment-99) on [issue #7](https://github.com/octo-org/parley/issues/7):\n\n~~~ quote\nConfirmed on main.\n~~~",
    });
    const pr = gh("issue_comment", f.comment("pr", "edited"));
    expect(pr.topic).toBe("parley / PR #7 Webhooks drop events");
    expect(pr.body.split("\n")[0]).toBe("octocat edited a [comment](https://github.com/octo-org/parley/pull/7#issuecomment-99) on [PR #7](https://github.com/octo-org/parley/pull/7):");
  });
});

describe("github: releases, refs, checks and the rest", () => {
  test("a release uses its name, else its tag", () => {
    expect(gh("release", f.release("Spring"))).toEqual({ topic: "parley", event: "release", body: "octocat published release [Spring](https://github.com/octo-org/parley/releases/tag/v1.2.0) for tag v1.2.0." });
    expect(gh("release", f.release(null)).body).toBe("octocat published release [v1.2.0](https://github.com/octo-org/parley/releases/tag/v1.2.0) for tag v1.2.0.");
  });

  test("create and delete of tags and branches", () => {
    expect(gh("create", f.createRef("tag", "v2.0"))).toEqual({ topic: "parley", event: "create", body: "octocat created tag v2.0." });
    expect(gh("delete", f.createRef("branch", "old"))).toEqual({ topic: "parley", event: "delete", body: "octocat deleted branch old." });
  });

  test("a completed check run is posted under '<repo> / checks'; one still running is ignored", () => {
    expect(gh("check_run", f.checkRun("completed", "failure"))).toEqual({
      topic: "parley / checks",
      event: "check_run",
      body: "Check [test (ubuntu)](https://github.com/octo-org/parley/runs/4) completed (failure). ([ce587453ced](https://github.com/octo-org/parley/commit/ce587453ced02b1526dfb4cb910479d431683101))",
    });
    expect(ghAll("check_run", f.checkRun("in_progress", null))).toEqual([]);
  });

  test("workflow_run is not one of Zulip's GitHub events: unsupported, as Zulip answers", () => {
    expect(() => ghAll("workflow_run", f.workflowRun)).toThrow("The 'workflow_run:completed' event isn't currently supported by the GitHub webhook; ignoring");
  });

  test("ping for a repository and for an organization", () => {
    expect(gh("ping", f.ping)).toEqual({ topic: "parley", event: "ping", body: "GitHub webhook has been successfully configured by octocat." });
    expect(gh("ping", f.orgPing).topic).toBe("octo-org");
  });

  test("stars, forks, commit comments, statuses and wiki pages", () => {
    expect(gh("star", { action: "created", repository: f.repository, sender: f.sender }).body).toBe("[octocat](https://github.com/octocat) starred the repository [octo-org/parley](https://github.com/octo-org/parley).");
    expect(gh("fork", { forkee: { name: "parley", html_url: "https://github.com/hubot/parley" }, repository: f.repository, sender: f.sender }).body).toBe("octocat forked [parley](https://github.com/hubot/parley).");
    const cc = gh("commit_comment", { action: "created", comment: { html_url: "https://github.com/octo-org/parley/commit/abc#commitcomment-1", commit_id: "abcdef0123456789", body: "Nice." }, repository: f.repository, sender: f.sender });
    expect(cc.body).toBe("octocat [commented](https://github.com/octo-org/parley/commit/abc#commitcomment-1) on [abcdef01234](https://github.com/octo-org/parley/commit/abc):\n~~~ quote\nNice.\n~~~");
    expect(gh("status", { sha: "abcdef0123456789", state: "success", target_url: "https://ci.example.com/1", commit: { html_url: "https://github.com/octo-org/parley/commit/abcdef" }, repository: f.repository, sender: f.sender }).body).toBe(
      "[abcdef01234](https://github.com/octo-org/parley/commit/abcdef) changed its status to [success](https://ci.example.com/1).",
    );
    const wiki = gh("gollum", { pages: [{ page_name: "Home", title: "Home", action: "edited", html_url: "https://github.com/octo-org/parley/wiki/Home" }], repository: f.repository, sender: f.sender });
    expect(wiki).toEqual({ topic: "parley / wiki pages", event: "gollum", body: "octocat:\n* edited [Home](https://github.com/octo-org/parley/wiki/Home)" });
  });

  test("ignored events post nothing; an event with no X-GitHub-Event header is refused", () => {
    expect(ghAll("check_suite", { action: "completed", repository: f.repository, sender: f.sender })).toEqual([]);
    expect(() => run("github", f.ping)).toThrow("Missing the HTTP event header 'X-GitHub-Event'");
  });

  test("a payload missing what the event needs is refused with the path", () => {
    expect(() => gh("pull_request", { action: "opened", repository: f.repository, sender: f.sender })).toThrow("payload['pull_request'] is missing");
  });
});

describe("github: sponsors, transfers and the events Zulip leaves out", () => {
  test("each sponsorship action, under the topic 'sponsors', whether GitHub names it in the header or the action", () => {
    const cases: [string, unknown, string][] = [
      ["created", f.sponsorship("created"), "octocat subscribed for $10 a month."],
      ["cancelled", f.sponsorship("cancelled"), "octocat cancelled their $10 a month subscription."],
      ["edited", f.sponsorship("edited", { changes: { privacy_level: { from: "private" } } }), "octocat changed who can see their sponsorship from private to public."],
      ["pending_cancellation", f.sponsorship("pending_cancellation", { effective_date: "2026-03-07T00:00:00+00:00" }), "octocat's $10 a month subscription will be cancelled on March 07, 2026."],
      ["pending_tier_change", f.sponsorshipTierChange("pending_tier_change", "2026-12-01T00:00:00Z"), "octocat's subscription will change from $5 a month to $10 a month on December 01, 2026."],
      ["tier_changed", f.sponsorshipTierChange("tier_changed"), "octocat changed their subscription from $5 a month to $10 a month."],
    ];
    for (const [action, payload, body] of cases) {
      expect(gh("sponsorship", payload)).toEqual({ topic: "sponsors", event: action, body });
      expect(gh(action, payload)).toEqual({ topic: "sponsors", event: action, body });
    }
    expect(() => ghAll("sponsorship", f.sponsorship("renamed"))).toThrow("The 'sponsorship:renamed' event isn't currently supported by the GitHub webhook; ignoring");
    expect(() => gh("sponsorship", f.sponsorship("pending_cancellation", { effective_date: "someday" }))).toThrow("Invalid date: someday");
  });

  test("an issue transferred away, and the same issue opened in its new repository", () => {
    expect(gh("issues", f.transferred)).toEqual({
      topic: "parley / issue #7 Webhooks drop events",
      event: "issues_transferred",
      body: "octocat transferred [issue #7 Webhooks drop events](https://github.com/octo-org/parley/issues/7) to [octo-org/parley-web/#3](https://github.com/octo-org/parley-web/issues/3).",
    });
    expect(gh("issues", f.openedViaTransfer)).toEqual({
      topic: "parley / issue #7 Webhooks drop events",
      event: "issues_opened_via_transfer",
      body: "[Issue #7 Webhooks drop events](https://github.com/octo-org/parley/issues/7) was transferred from [octo-org/parley#7](https://github.com/octo-org/parley/issues/7).",
    });
  });

  test("a review's empty 'edited' duplicate and a comment edit that changes nothing post nothing", () => {
    expect(ghAll("pull_request_review", { ...f.review, action: "edited", changes: {} })).toEqual([]);
    expect(gh("pull_request_review", { ...f.review, action: "edited", changes: { body: { from: "Looks good." } } }).event).toBe("pull_request_review");
    expect(ghAll("issue_comment", f.comment("issue", "edited", "Confirmed on main."))).toEqual([]);
    expect(gh("issue_comment", f.comment("issue", "edited")).body.split("\n")[0]).toBe("octocat edited a [comment](https://github.com/octo-org/parley/issues/7#issuecomment-99) on [issue #7](https://github.com/octo-org/parley/issues/7):");
  });

  test("ignore_private_repositories=true drops events of private repositories only", () => {
    const secret = f.push(1, { repository: { ...f.repository, private: true } });
    expect(ghAll("push", secret, { ignore_private_repositories: "true" })).toEqual([]);
    expect(ghAll("push", secret, { ignore_private_repositories: "false" })).toHaveLength(1);
    expect(ghAll("push", f.push(1), { ignore_private_repositories: "true" })).toHaveLength(1);
    expect(() => ghAll("push", secret, { ignore_private_repositories: "yes" })).toThrow("ignore_private_repositories is not valid JSON");
  });

  test("branches= names exact branches, spaces around the commas ignored", () => {
    expect(ghAll("push", f.push(1), { branches: "dev, main" })).toHaveLength(1);
    expect(ghAll("push", f.push(1), { branches: "mainline,ain" })).toEqual([]);
  });
});

describe("github: a sender who is a Parley user", () => {
  test("exactly one user with that GitHub account: named by a silent mention; none or several: the login", () => {
    const as = (holders: string[]) => INTEGRATIONS.get("github")!.handle({ payload: new Wild(f.createRef("tag", "v3")), headers: new Headers({ "X-GitHub-Event": "create" }), params: {}, accountHolders: holders })[0]!.body;
    expect(as(["Mona Lisa"])).toBe("@_**Mona Lisa** created tag v3.");
    expect(as([])).toBe("octocat created tag v3.");
    expect(as(["Mona Lisa", "Mona Lisa (work)"])).toBe("octocat created tag v3.");
  });
});
