import { eventHeader, UnsupportedEvent, type Integration } from "./types";
import type { Wild } from "./wild";
import * as git from "./git";

/**
 * Zulip's Gitea integration (zerver/webhooks/gitea/view.py on gogs_webhook_main): push, branch
 * creation, pull requests, issues, issue comments and releases. Forgejo sends the same payloads
 * and the X-Gitea-Event header.
 */
const NAME = "Gitea";

const issueUrl = (p: Wild, n: number) => `${p.at("repository").at("html_url").str()}/issues/${n}`;

function push(p: Wild, branch: string): string {
  const commits = p.at("commits").list().map((c) => {
    const username = c.at("author").at("username").str();
    return { name: username || c.at("author").at("name").str().split(/\s+/)[0]!, sha: c.at("id").str(), url: c.at("url").str(), message: c.at("message").str() };
  });
  return git.pushCommitsMessage({ userName: p.at("sender").at("username").str(), compareUrl: p.at("compare_url").str(), branch, commits });
}

function pullRequest(p: Wild, includeTitle: boolean): string {
  const pr = p.at("pull_request");
  const merged = pr.at("merged").bool();
  const userName = merged ? pr.at("merged_by").at("username").str() : pr.at("user").at("username").str();
  const action = merged ? "merged" : p.at("action").str();
  const assignee = pr.get("assignee").truthy ? pr.at("assignee").at("login").str() : null;
  const branches = action !== "edited";
  return git.pullRequestMessage({
    userName,
    action,
    url: pr.at("html_url").str(),
    number: pr.at("number").int(),
    targetBranch: branches && pr.has("head") ? pr.at("head").at("ref").str() : null,
    baseBranch: branches && pr.has("base") ? pr.at("base").at("ref").str() : null,
    title: includeTitle ? pr.at("title").str() : null,
    assignee,
    assigneeUpdated: action === "assigned" ? assignee : null,
  });
}

function issues(p: Wild, includeTitle: boolean): string {
  const issue = p.at("issue");
  const n = issue.at("number").int();
  const assignee = issue.get("assignee").truthy ? issue.at("assignee").at("login").str() : null;
  return git.issueMessage({
    userName: p.at("sender").at("login").str(),
    action: p.at("action").str(),
    url: issueUrl(p, n),
    number: n,
    message: issue.at("body").str(),
    assignee,
    title: includeTitle ? issue.at("title").str() : null,
    assigneeUpdated: p.at("action").str() === "assigned" ? assignee : null,
  });
}

function issueComment(p: Wild, includeTitle: boolean): string {
  const action = p.at("action").str();
  const issue = p.at("issue");
  const n = issue.at("number").int();
  return git.issueMessage({
    userName: p.at("sender").at("login").str(),
    action: `${action === "created" ? "[commented]" : `${action} a [comment]`}(${p.at("comment").at("html_url").str()}) on`,
    url: issueUrl(p, n),
    number: n,
    message: p.at("comment").at("body").str(),
    title: includeTitle ? issue.at("title").str() : null,
  });
}

/**
 * A comment on a pull request (the pull_request_comment event, or issue_comment on a /pulls/ URL):
 * under "<repo> / PR comment #<n>", the PR's title quoted in the link, the comment (or the edit) quoted.
 */
function prComment(p: Wild, prUrl: string | null): { topic: string; body: string } {
  const action = p.at("action").str();
  const comment = p.at("comment");
  const issue = p.at("issue");
  const n = issue.at("number").int();
  const text = comment.at("body").str();
  let verb: string;
  let message: string;
  if (action === "created") [verb, message] = ["commented", text];
  else if (action === "deleted") [verb, message] = ["deleted a comment", text];
  else if (action === "edited") {
    const from = p.get("changes").get("body").get("from");
    [verb, message] = ["edited a comment", `from "${from.truthy ? from.str().trim() : "unknown"}" to "${text}"`];
  } else throw new UnsupportedEvent(NAME, `pull_request_comment:${action}`);
  let body = `${p.at("sender").at("login").str()} [${verb}](${comment.at("html_url").str()}) on [PR #${n} "${issue.at("title").str()}"](${prUrl ?? issue.at("html_url").str()})`;
  if (message) body += git.quote(message);
  return { topic: git.topicWithPrOrIssue(p.at("repository").at("name").str(), "PR comment", n, "").trimEnd(), body };
}

export const gitea: Integration = {
  name: "gitea",
  displayName: NAME,
  eventTypes: ["push", "create", "pull_request", "issues", "issue_comment", "release", "delete", "pull_request_comment"],
  handle(req) {
    const p = req.payload;
    const repo = p.at("repository").at("name").str();
    const event = eventHeader(req, "X-Gitea-Event", NAME);
    const includeTitle = req.params.topic !== undefined;
    let topic: string;
    let body: string;
    if (event === "push") {
      const branch = p.at("ref").str().replace("refs/heads/", "");
      if (!git.isBranchNotifiable(branch, req.params.branches)) return [];
      body = push(p, branch);
      topic = git.topicWithBranch(repo, branch);
    } else if (event === "create") {
      const branch = p.at("ref").str();
      body = git.createBranchMessage(p.at("sender").at("username").str(), `${p.at("repository").at("html_url").str()}/src/${branch}`, branch);
      topic = git.topicWithBranch(repo, branch);
    } else if (event === "pull_request") {
      body = pullRequest(p, includeTitle);
      // Zulip names the topic with the pull request's global id, not its number
      topic = git.topicWithPrOrIssue(repo, "PR", p.at("pull_request").at("id").int(), p.at("pull_request").at("title").str());
    } else if (event === "issue_comment" && p.at("comment").at("html_url").str().split("/").at(-2) === "pulls") {
      ({ topic, body } = prComment(p, p.at("comment").at("html_url").str().split("#")[0]!));
    } else if (event === "pull_request_comment") {
      ({ topic, body } = prComment(p, null));
    } else if (event === "issues" || event === "issue_comment") {
      body = event === "issues" ? issues(p, includeTitle) : issueComment(p, includeTitle);
      topic = git.topicWithPrOrIssue(repo, "issue", p.at("issue").at("number").int(), p.at("issue").at("title").str());
    } else if (event === "delete") {
      const refType = p.at("ref_type").str();
      if (refType !== "branch" && refType !== "tag") throw new UnsupportedEvent(NAME, `delete:${refType}`);
      const ref = p.at("ref").str();
      body = `${p.at("sender").at("login").str()} deleted ${refType} \`${ref}\`.`;
      topic = git.topicWithBranch(repo, ref);
    } else if (event === "release") {
      const r = p.at("release");
      body = git.releaseMessage(r.at("author").at("username").str(), p.at("action").str(), r.at("tag_name").str(), r.at("name").str(), p.at("repository").at("html_url").str());
      topic = git.topicWithRelease(repo, r.at("tag_name").str(), r.at("name").str());
    } else throw new UnsupportedEvent(NAME, event);
    return [{ topic, body, event }];
  },
};
