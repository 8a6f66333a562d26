import { describe, expect, test } from "bun:test";
import { one, run } from "./run";

// Our own Gitea/Forgejo payloads, shaped as Gitea documents them (docs.gitea.com, "Webhooks").
const repository = { id: 3, name: "parley", full_name: "team/parley", html_url: "https://git.example.com/team/parley" };
const sender = { id: 1, login: "ada", username: "ada", full_name: "Ada Lovelace" };
const commit = (i: number, username = "ada") => ({
  id: `4c8b7ff2b9e0e1a35d7e6d5f2a7c8b9d0e1f2a3${i}`,
  message: `Fix ${i}\n`,
  url: `https://git.example.com/team/parley/commit/4c8b7ff${i}`,
  author: { name: "Grace Brewster Hopper", email: "g@example.com", username },
});
const push = (commits: unknown[]) => ({ ref: "refs/heads/main", before: "a", after: "b", compare_url: "https://git.example.com/team/parley/compare/a...b", commits, repository, pusher: sender, sender });
const pr = (action: string, fields: Record<string, unknown> = {}) => ({
  action,
  number: 5,
  pull_request: {
    id: 12,
    number: 5,
    user: { login: "ada", username: "ada" },
    title: "Add webhooks",
    body: "",
    html_url: "https://git.example.com/team/parley/pulls/5",
    merged: false,
    merged_by: null,
    assignee: null,
    head: { ref: "webhooks", label: "webhooks" },
    base: { ref: "main", label: "main" },
    ...fields,
  },
  repository,
  sender,
});
const issue = (action: string, fields: Record<string, unknown> = {}) => ({
  action,
  number: 9,
  issue: { id: 40, number: 9, title: "It breaks", body: "Steps.", user: sender, assignee: null, ...fields },
  repository,
  sender,
});

const gt = (event: string, payload: unknown, params: Record<string, string> = {}) => one("gitea", payload, { "X-Gitea-Event": event }, params);

describe("gitea (and Forgejo)", () => {
  test("a push lists commits by username, or the author's first name when there is none", () => {
    const m = gt("push", push([commit(1), commit(2, "")]));
    expect(m.topic).toBe("parley / main");
    expect(m.body).toBe(
      "ada [pushed](https://git.example.com/team/parley/compare/a...b) 2 commits to branch main. Commits by Grace (1) and ada (1).\n\n" +
        "* Fix 1 ([4c8b7ff2b9e](https://git.example.com/team/parley/commit/4c8b7ff1))\n* Fix 2 ([4c8b7ff2b9e](https://git.example.com/team/parley/commit/4c8b7ff2))",
    );
    expect(run("gitea", push([commit(1)]), { "X-Gitea-Event": "push" }, { branches: "dev" })).toEqual([]);
  });

  test("a branch created", () => {
    expect(gt("create", { ref: "feature", ref_type: "branch", repository, sender })).toEqual({
      topic: "parley / feature",
      event: "create",
      body: "ada created [feature](https://git.example.com/team/parley/src/feature) branch.",
    });
  });

  test("pull requests opened, merged, assigned and edited; the topic carries the PR's id as Zulip's does", () => {
    const opened = gt("pull_request", pr("opened"));
    expect(opened).toEqual({ topic: "parley / PR #12 Add webhooks", event: "pull_request", body: "ada opened [PR #5](https://git.example.com/team/parley/pulls/5) from `webhooks` to `main`." });
    expect(gt("pull_request", pr("closed", { merged: true, merged_by: { username: "grace" } })).body).toBe("grace merged [PR #5](https://git.example.com/team/parley/pulls/5) from `webhooks` to `main`.");
    expect(gt("pull_request", pr("assigned", { assignee: { login: "grace" } })).body).toBe("ada assigned grace to [PR #5](https://git.example.com/team/parley/pulls/5) from `webhooks` to `main` (assigned to grace).");
    expect(gt("pull_request", pr("edited"), { topic: "t" }).body).toBe("ada edited [PR #5 Add webhooks](https://git.example.com/team/parley/pulls/5).");
  });

  test("issues and issue comments", () => {
    expect(gt("issues", issue("opened"))).toEqual({ topic: "parley / issue #9 It breaks", event: "issues", body: "ada opened [issue #9](https://git.example.com/team/parley/issues/9):\n\n~~~ quote\nSteps.\n~~~" });
    const c = gt("issue_comment", { ...issue("created"), comment: { id: 7, html_url: "https://git.example.com/team/parley/issues/9#issuecomment-7", body: "Same here." } });
    expect(c.body).toBe("ada [commented](https://git.example.com/team/parley/issues/9#issuecomment-7) on [issue #9](https://git.example.com/team/parley/issues/9):\n\n~~~ quote\nSame here.\n~~~");
  });

  test("releases, and events Zulip does not handle", () => {
    const r = gt("release", { action: "published", release: { tag_name: "v1.0", name: "One", author: { username: "ada" } }, repository, sender });
    expect(r).toEqual({ topic: "parley / v1.0 One", event: "release", body: "ada published release [One](https://git.example.com/team/parley) for tag v1.0." });
    expect(() => run("gitea", { repository, sender }, { "X-Gitea-Event": "wiki" })).toThrow("The 'wiki' event isn't currently supported by the Gitea webhook; ignoring");
  });
});

describe("gitea: deletions, assignments and comments on pull requests", () => {
  const prComment = (action: string, extra: Record<string, unknown> = {}) => ({
    action,
    issue: { id: 41, number: 5, title: "Add webhooks", html_url: "https://git.example.com/team/parley/pulls/5", body: "", user: sender, pull_request: { merged: false } },
    comment: { id: 8, html_url: "https://git.example.com/team/parley/pulls/5#issuecomment-8", body: "Looks good.", user: sender },
    is_pull: true,
    repository,
    sender,
    ...extra,
  });

  test("a deleted branch or tag, in backticks, under '<repo> / <ref>'", () => {
    expect(gt("delete", { ref: "old-feature", ref_type: "branch", pusher_type: "user", repository, sender })).toEqual({ topic: "parley / old-feature", event: "delete", body: "ada deleted branch `old-feature`." });
    expect(gt("delete", { ref: "v0.9", ref_type: "tag", pusher_type: "user", repository, sender })).toEqual({ topic: "parley / v0.9", event: "delete", body: "ada deleted tag `v0.9`." });
  });

  test("an issue assigned names the assignee, as a pull request does", () => {
    expect(gt("issues", issue("assigned", { assignee: { login: "grace" } })).body).toBe("ada assigned grace to [issue #9](https://git.example.com/team/parley/issues/9) (assigned to grace):\n\n~~~ quote\nSteps.\n~~~");
  });

  test("a comment on a pull request, created, edited or deleted, by either event name", () => {
    const created = gt("pull_request_comment", prComment("created"));
    expect(created).toEqual({
      topic: "parley / PR comment #5",
      event: "pull_request_comment",
      body: 'ada [commented](https://git.example.com/team/parley/pulls/5#issuecomment-8) on [PR #5 "Add webhooks"](https://git.example.com/team/parley/pulls/5)\n~~~ quote\nLooks good.\n~~~',
    });
    expect(gt("issue_comment", prComment("created"))).toEqual({ ...created, event: "issue_comment" });
    expect(gt("pull_request_comment", prComment("edited", { changes: { body: { from: "Looks bad. " } } })).body).toBe(
      'ada [edited a comment](https://git.example.com/team/parley/pulls/5#issuecomment-8) on [PR #5 "Add webhooks"](https://git.example.com/team/parley/pulls/5)\n~~~ quote\nfrom "Looks bad." to "Looks good."\n~~~',
    );
    expect(gt("pull_request_comment", prComment("deleted")).body.split("\n")[0]).toBe('ada [deleted a comment](https://git.example.com/team/parley/pulls/5#issuecomment-8) on [PR #5 "Add webhooks"](https://git.example.com/team/parley/pulls/5)');
  });

  test("branches= ignores spaces around the names", () => {
    expect(run("gitea", push([commit(1)]), { "X-Gitea-Event": "push" }, { branches: "dev, main" })).toHaveLength(1);
  });
});
