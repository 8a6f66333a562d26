import { badRequest } from "../errors";
import { eventHeader, UnsupportedEvent, type Integration } from "./types";
import type { Wild } from "./wild";
import * as git from "./git";

/**
 * Zulip's GitLab integration (zerver/webhooks/gitlab/view.py): X-GitLab-Event, refined by the
 * object's action or noteable type ("Merge Request Hook merge", "Note Hook Issue"), picks the message.
 */
const NAME = "GitLab";

type Body = (p: Wild, includeTitle: boolean) => string;

const userName = (p: Wild) => p.at("user_name").str();
const issueUserName = (p: Wild) => p.at("user").at("name").str();
const repoName = (p: Wild) => (p.has("project") ? p.at("project").at("name").str() : p.at("repository").at("name").str());
const homepage = (p: Wild) => (p.has("project") ? p.at("project").at("web_url").str() : p.at("repository").at("homepage").str());
const branchName = (p: Wild) => p.at("ref").str().replace("refs/heads/", "");
const attrs = (p: Wild) => p.at("object_attributes");
const titleIf = (w: Wild, include: boolean) => (include ? w.at("title").str() : null);

/** GitLab sends `assignees`, or one `assignee` in older versions; Zulip shows their names. */
function assignees(p: Wild): { username: string }[] {
  const list = p.get("assignees").truthy ? p.at("assignees").list() : p.get("assignee").truthy ? [p.at("assignee")] : [];
  return list.map((a) => ({ username: a.at("name").str() }));
}

const push: Body = (p) => {
  const after = p.get("after");
  if (after.truthy && after.str() === git.EMPTY_SHA) return git.removeBranchMessage(userName(p), branchName(p));
  const commits = p.at("commits").list().map((c) => ({ name: c.at("author").at("name").str(), sha: c.at("id").str(), message: c.at("message").str(), url: c.at("url").str() }));
  return git.pushCommitsMessage({ userName: userName(p), compareUrl: `${homepage(p)}/-/compare/${p.at("before").str()}...${p.at("after").str()}`, branch: branchName(p), commits });
};

const tagPush: Body = (p) => git.pushTagMessage(userName(p), p.at("ref").str().replace("refs/tags/", ""), null, p.get("checkout_sha").truthy ? "pushed" : "removed");

const issueCreated: Body = (p, t) => {
  const d = attrs(p).get("description");
  // hidden HTML comments (issue templates) are left out
  const description = d.truthy ? d.str().replace(/<!--[\s\S]*?-->/g, "").trimEnd() : null;
  return git.issueMessage({ userName: issueUserName(p), action: "created", url: attrs(p).at("url").str(), number: attrs(p).at("iid").int(), message: description, assignees: assignees(p), title: titleIf(attrs(p), t) });
};

const issueEvent =
  (action: string): Body =>
  (p, t) =>
    git.issueMessage({ userName: issueUserName(p), action, url: attrs(p).at("url").str(), number: attrs(p).at("iid").int(), title: titleIf(attrs(p), t) });

const mrEvent =
  (action: string): Body =>
  (p, t) => {
    const mr = attrs(p);
    const merged = action === "merged";
    return git.pullRequestMessage({
      userName: issueUserName(p),
      action,
      url: mr.at("url").str(),
      number: mr.at("iid").int(),
      targetBranch: merged ? mr.at("source_branch").str() : null,
      baseBranch: merged ? mr.at("target_branch").str() : null,
      type: "MR",
      title: titleIf(mr, t),
    });
  };

const mrOpenedOrUpdated =
  (action: string): Body =>
  (p, t) => {
    const mr = attrs(p);
    const created = action === "created";
    return git.pullRequestMessage({
      userName: issueUserName(p),
      action,
      url: mr.at("url").str(),
      number: mr.at("iid").int(),
      targetBranch: created ? mr.at("source_branch").str() : null,
      baseBranch: created ? mr.at("target_branch").str() : null,
      message: mr.at("description").strOrNull(),
      assignees: assignees(p),
      type: "MR",
      title: titleIf(mr, t),
    });
  };

const mrUpdated: Body = (p, t) => (attrs(p).get("oldrev").truthy ? mrEvent("added commit(s) to")(p, t) : mrOpenedOrUpdated("updated")(p, t));

const commentOn =
  (key: "merge_request" | "issue" | "snippet", type: string): Body =>
  (p, t) => {
    const c = attrs(p);
    const target = p.at(key);
    const url =
      key === "snippet" ? (target.has("url") ? target.at("url").str() : `${p.at("project").at("web_url").str()}/-/snippets/${target.at("id").int()}`) : target.at("url").str();
    return git.pullRequestMessage({
      userName: issueUserName(p),
      action: `[commented](${c.at("url").str()}) on`,
      url,
      number: key === "snippet" ? target.at("id").int() : target.at("iid").int(),
      message: c.at("note").str(),
      type,
      title: titleIf(target, t),
    });
  };

const commitComment: Body = (p) =>
  git.commitCommentMessage(issueUserName(p), `[commented](${attrs(p).at("url").str()})`, p.at("commit").at("url").str(), p.at("commit").at("id").str(), attrs(p).at("note").str());

/** A design's comment: the issue number and the design's name come from its path, "designs/issue-<n>/<name>". */
function designComment(p: Wild) {
  const c = attrs(p);
  const path = c.at("position").at("new_path").str();
  const parts = path.split("/");
  if (parts.length !== 3) throw badRequest(`Invalid ${c.at("position").at("new_path").path}`);
  const designName = parts[2]!;
  const designUrl = `${p.at("repository").at("homepage").str()}/-/issues/${parts[1]!.split("-").at(-1)}/designs/${designName}`;
  return { designName, designUrl, commentUrl: `${designUrl}#note_${c.at("id").int()}` };
}

const designCommented: Body = (p) => {
  const { designName, designUrl, commentUrl } = designComment(p);
  return `${issueUserName(p)} [commented](${commentUrl}) on design [${designName}](${designUrl}):\n${git.quote(attrs(p).at("note").str())}`;
};

const featureFlag: Body = (p) =>
  `${p.at("user").at("username").str()} ${attrs(p).at("active").truthy ? "activated" : "deactivated"} the feature flag [${attrs(p).at("name").str()}](${p.at("project").at("web_url").str()}/-/feature_flags).`;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** Python's strptime("%Y-%m-%d") then strftime("%b %d, %Y"). */
function shortDate(w: Wild): string {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(w.str());
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  if (!m || !month || Number(m[3]) < 1 || Number(m[3]) > 31) throw badRequest(`Invalid ${w.path}`);
  return `${month} ${m[3]!.padStart(2, "0")}, ${m[1]}`;
}

const accessTokenExpiring: Body = (p) => {
  const token = attrs(p);
  // a group's tokens live on gitlab.com's group settings page (Zulip's link), a project's under the project
  const url = p.has("group")
    ? `https://gitlab.com/groups/${p.at("group").at("group_path").str()}/-/settings/access_tokens`
    : `${p.at("project").at("web_url").str()}/-/settings/access_tokens`;
  return `The access token [${token.at("name").str()}](${url}) will expire on ${shortDate(token.at("expires_at"))}.`;
};

const wikiPage =
  (action: string): Body =>
  (p) =>
    `${issueUserName(p)} ${action} [wiki page "${attrs(p).at("title").str()}"](${attrs(p).at("url").str()}).`;

const statusAction = (status: string, first: string) => (status === first ? "was created" : status === "running" ? "started" : `changed status to ${status}`);

const build: Body = (p) => `Build ${p.at("build_name").str()} from ${p.at("build_stage").str()} stage ${statusAction(p.at("build_status").str(), "created")}.`;

const pipeline: Body = (p) => {
  const a = attrs(p);
  const home = homepage(p);
  const id = a.at("id").int();
  let builds = "";
  for (const b of p.at("builds").list()) {
    const buildUrl = `${home}/-/jobs/${b.at("id").int()}`;
    const artifact = b.get("artifacts_file").get("filename");
    const artifactLine = artifact.truthy ? `  * built artifact: *${artifact.str()}* [[Browse](${buildUrl}/artifacts/browse)|[Download](${buildUrl}/artifacts/download)]\n` : "";
    builds += `* [${b.at("name").str()}](${buildUrl}) - ${b.at("status").str()}\n${artifactLine}`;
  }
  return `[Pipeline (${id})](${home}/-/pipelines/${id}) ${statusAction(a.at("status").str(), "pending")} with build(s):\n${builds.slice(0, -1)}.`;
};

const release: Body = (p) => {
  const action = p.at("action").str();
  const name = p.at("name").str();
  const tag = p.at("tag").str();
  if (action === "delete") return `Release ${name} for tag ${tag} was ${action}d.`;
  let body = `Release [${name}](${p.at("url").str()}) for tag ${tag} was ${action}d.`;
  if (p.has("description")) body += git.quote(p.at("description").str());
  return body;
};

const deployment: Body = (p) => {
  const user = `[${p.at("user").at("name").str()}](${p.at("user_url").str()})`;
  const deployableUrl = p.get("deployable_url").truthy ? p.at("deployable_url").str() : "";
  const what = deployableUrl ? `[deployment](${deployableUrl})` : "deployment";
  const commitUrl = p.at("commit_url").str();
  const bodies: Record<string, string> = {
    running: `${user} started a new ${what}:\n> [${commitUrl.split("/").at(-1)!.slice(0, 7)}](${commitUrl}) ${p.at("commit_title").str()}`,
    success: `The ${what} was successful.`,
    failed: `The ${what} failed.`,
    canceled: `The ${what} was canceled.`,
  };
  const status = p.at("status").str();
  if (!Object.hasOwn(bodies, status)) throw new UnsupportedEvent(NAME, `Deployment Hook ${status}`);
  return bodies[status]!;
};

const BODIES: Record<string, Body> = {
  "Push Hook": push,
  "Tag Push Hook": tagPush,
  "Test Hook": (p) => `Webhook for **${repoName(p)}** has been configured successfully! :tada:`,
  "Issue Hook open": issueCreated,
  "Issue Hook close": issueEvent("closed"),
  "Issue Hook reopen": issueEvent("reopened"),
  "Issue Hook update": issueEvent("updated"),
  "Confidential Issue Hook open": issueCreated,
  "Confidential Issue Hook close": issueEvent("closed"),
  "Confidential Issue Hook reopen": issueEvent("reopened"),
  "Confidential Issue Hook update": issueEvent("updated"),
  "Note Hook Commit": commitComment,
  "Note Hook MergeRequest": commentOn("merge_request", "MR"),
  "Note Hook Issue": commentOn("issue", "issue"),
  "Confidential Note Hook Issue": commentOn("issue", "issue"),
  "Note Hook DesignManagement::Design": designCommented,
  "Confidential Note Hook DesignManagement::Design": designCommented,
  "Note Hook Snippet": commentOn("snippet", "snippet"),
  "Merge Request Hook approved": mrEvent("approved"),
  "Merge Request Hook unapproved": mrEvent("unapproved"),
  "Merge Request Hook approval": mrEvent("approval"),
  "Merge Request Hook unapproval": mrEvent("unapproval"),
  "Merge Request Hook open": mrOpenedOrUpdated("created"),
  "Merge Request Hook update": mrUpdated,
  "Merge Request Hook merge": mrEvent("merged"),
  "Merge Request Hook close": mrEvent("closed"),
  "Merge Request Hook reopen": mrEvent("reopened"),
  "Wiki Page Hook create": wikiPage("created"),
  "Wiki Page Hook update": wikiPage("updated"),
  "Job Hook": build,
  "Build Hook": build,
  "Pipeline Hook": pipeline,
  "Release Hook": release,
  "Deployment Hook": deployment,
  "Feature Flag Hook": featureFlag,
  "Resource Access Token Hook": accessTokenExpiring,
};

/** Python's str.title() on ASCII words. */
const titleCase = (s: string) => s.toLowerCase().replace(/(^|[^a-z])([a-z])/g, (_, a: string, b: string) => a + b.toUpperCase());

function eventOf(header: string, p: Wild, branches: string | undefined): string | null {
  let event = header;
  if (event === "System Hook") {
    const name = p.has("event_name") ? p.at("event_name").str() : p.at("object_kind").str();
    event = `${titleCase(name.split("__")[0]!.replace(/_/g, " "))} Hook`;
  }
  if (["Confidential Issue Hook", "Issue Hook", "Merge Request Hook", "Wiki Page Hook"].includes(event)) {
    const action = attrs(p).get("action");
    event = `${event} ${action.value === undefined ? "open" : action.str()}`;
  } else if (event === "Confidential Note Hook" || event === "Note Hook") {
    event = `${event} ${attrs(p).at("noteable_type").str()}`;
  } else if (event === "Push Hook" && !git.isBranchNotifiable(branchName(p), branches)) return null;
  if (Object.hasOwn(BODIES, event)) return event;
  throw new UnsupportedEvent(NAME, event);
}

function topicOf(event: string, p: Wild, useMrTitle: boolean): string {
  if (event === "Push Hook") return `${repoName(p)} / ${branchName(p)}`;
  if (event === "Job Hook" || event === "Build Hook") return `${p.at("repository").at("name").str()} / ${branchName(p)}`;
  if (event === "Pipeline Hook") return `${repoName(p)} / ${attrs(p).at("ref").str().replace("refs/heads/", "")}`;
  if (event.startsWith("Merge Request Hook")) return git.topicWithPrOrIssue(repoName(p), "MR", attrs(p).at("iid").int(), useMrTitle ? attrs(p).at("title").str() : "");
  if (event.startsWith("Issue Hook") || event.startsWith("Confidential Issue Hook")) return git.topicWithPrOrIssue(repoName(p), "issue", attrs(p).at("iid").int(), attrs(p).at("title").str());
  if (event === "Note Hook Issue" || event === "Confidential Note Hook Issue") return git.topicWithPrOrIssue(repoName(p), "issue", p.at("issue").at("iid").int(), p.at("issue").at("title").str());
  if (event === "Note Hook MergeRequest") return git.topicWithPrOrIssue(repoName(p), "MR", p.at("merge_request").at("iid").int(), useMrTitle ? p.at("merge_request").at("title").str() : "");
  if (event === "Note Hook Snippet") return git.topicWithPrOrIssue(repoName(p), "snippet", p.at("snippet").at("id").int(), p.at("snippet").at("title").str());
  if (event.endsWith("Note Hook DesignManagement::Design")) return `${repoName(p)} / design ${attrs(p).at("position").at("new_path").str().split("/").at(-1)}`;
  if (event === "Resource Access Token Hook" && p.get("group").truthy) return p.at("group").at("group_name").str();
  if (event === "Deployment Hook") return `${repoName(p)} / ${p.at("environment").str()}`;
  return repoName(p);
}

export const gitlab: Integration = {
  name: "gitlab",
  displayName: NAME,
  eventTypes: Object.keys(BODIES),
  handle({ payload, headers, params }) {
    const event = eventOf(eventHeader({ payload, headers, params }, "X-GitLab-Event", NAME), payload, params.branches);
    if (event === null) return [];
    let body = BODIES[event]!(payload, params.topic !== undefined);
    // with a topic of one's own, each message says which project it is about
    if (params.topic) body = `[[${repoName(payload)}](${homepage(payload)})] ${body}`;
    const useMrTitle = params.use_merge_request_title === undefined ? true : params.use_merge_request_title !== "false";
    return [{ topic: topicOf(event, payload, useMrTitle), body, event }];
  },
};
