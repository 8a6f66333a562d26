import { badRequest } from "../errors";
import { eventHeader, UnsupportedEvent, type Integration, type WebhookRequest } from "./types";
import type { Wild } from "./wild";
import * as git from "./git";

/**
 * Zulip's GitHub integration (zerver/webhooks/github/view.py): the X-GitHub-Event header, refined
 * by the payload's action, picks a message; the topic is the repository, its branch, or its issue
 * or pull request. With a `topic` in the URL, messages name the issue or PR's title instead.
 */
const NAME = "GitHub";

interface Helper {
  p: Wild;
  includeTitle: boolean;
  /** the one Parley user whose GitHub account (an external-account profile field) is the sender, if exactly one */
  knownAs: string | null;
}

/** Zulip's get_sender_name: a silent mention of the Parley user who is the sender on GitHub, else the login. */
const sender = (h: Helper) => (h.knownAs !== null ? `@_**${h.knownAs}**` : h.p.at("sender").at("login").str());
const senderUrl = (p: Wild) => p.at("sender").at("html_url").str();
const repoName = (p: Wild) => p.at("repository").at("name").str();
const repoFullName = (p: Wild) => p.at("repository").at("full_name").str();
const branchOf = (ref: string) => ref.replace(/^refs\/heads\//, "");
const tagOf = (ref: string) => ref.replace(/^refs\/tags\//, "");
const titleIf = (h: Helper, w: Wild) => (h.includeTitle ? w.at("title").str() : null);

function openedOrUpdatedPr(h: Helper): string {
  const { p, includeTitle } = h;
  const pr = p.at("pull_request");
  let action = p.at("action").str();
  if (action === "synchronize") action = "updated";
  const assignee = pr.get("assignee").truthy ? pr.at("assignee").at("login").str() : null;
  const description = p.get("changes").has("body") || action === "opened" ? pr.at("body").strOrNull() : null;
  const branches = action === "opened" || action === "merged";
  return git.pullRequestMessage({
    userName: sender(h),
    action,
    url: pr.at("html_url").str(),
    targetBranch: branches ? pr.at("head").at("label").str() : null,
    baseBranch: branches ? pr.at("base").at("label").str() : null,
    message: description,
    assignee,
    number: pr.at("number").int(),
    title: includeTitle ? pr.at("title").str() : null,
  });
}

function assignedPr(h: Helper): string {
  const pr = h.p.at("pull_request");
  return git.pullRequestMessage({
    userName: sender(h),
    action: h.p.at("action").str(),
    url: pr.at("html_url").str(),
    number: pr.at("number").int(),
    title: titleIf(h, pr),
    assigneeUpdated: h.p.at("assignee").at("login").str(),
  });
}

function closedPr(h: Helper): string {
  const pr = h.p.at("pull_request");
  return git.pullRequestMessage({
    userName: sender(h),
    action: pr.at("merged").bool() ? "merged" : "closed without merge",
    url: pr.at("html_url").str(),
    number: pr.at("number").int(),
    title: titleIf(h, pr),
  });
}

function issueBody(h: Helper): string {
  const p = h.p;
  const action = p.at("action").str();
  const issue = p.at("issue");
  return git.issueMessage({
    userName: sender(h),
    action,
    url: issue.at("html_url").str(),
    number: issue.at("number").int(),
    message: action === "assigned" || action === "unassigned" ? null : issue.at("body").strOrNull(),
    title: titleIf(h, issue),
    assigneeUpdated: p.has("assignee") ? p.at("assignee").at("login").str() : null,
  });
}

function issueTransferred(h: Helper): string {
  const issue = h.p.at("issue");
  const changes = h.p.at("changes");
  const next = changes.at("new_issue");
  return `${sender(h)} transferred [issue #${issue.at("number").int()} ${issue.at("title").str()}](${issue.at("html_url").str()}) to [${changes.at("new_repository").at("full_name").str()}/#${next.at("number").int()}](${next.at("html_url").str()}).`;
}

function issueOpenedViaTransfer(h: Helper): string {
  const issue = h.p.at("issue");
  const changes = h.p.at("changes");
  const old = changes.at("old_issue");
  return `[Issue #${issue.at("number").int()} ${issue.at("title").str()}](${issue.at("html_url").str()}) was transferred from [${changes.at("old_repository").at("full_name").str()}#${old.at("number").int()}](${old.at("html_url").str()}).`;
}

// GitHub Sponsors: the tier's name, and the dates as Python's strftime("%B %d, %Y") writes them
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const tier = (p: Wild) => p.at("sponsorship").at("tier").at("name").str();
const priorTier = (p: Wild) => p.at("changes").at("tier").at("from").at("name").str();
function effectiveDate(p: Wild): string {
  const raw = p.at("effective_date").str().slice(0, 10);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  if (!m || !month || Number(m[3]) < 1 || Number(m[3]) > 31) throw badRequest(`Invalid date: ${raw}`);
  return `${month} ${m[3]}, ${m[1]}`;
}
const SPONSORSHIP: Record<string, (h: Helper) => string> = {
  cancelled: (h) => `${sender(h)} cancelled their ${tier(h.p)} subscription.`,
  created: (h) => `${sender(h)} subscribed for ${tier(h.p)}.`,
  edited: (h) =>
    `${sender(h)} changed who can see their sponsorship from ${h.p.at("changes").at("privacy_level").at("from").str()} to ${h.p.at("sponsorship").at("privacy_level").str()}.`,
  pending_cancellation: (h) => `${sender(h)}'s ${tier(h.p)} subscription will be cancelled on ${effectiveDate(h.p)}.`,
  pending_tier_change: (h) => `${sender(h)}'s subscription will change from ${priorTier(h.p)} to ${tier(h.p)} on ${effectiveDate(h.p)}.`,
  tier_changed: (h) => `${sender(h)} changed their subscription from ${priorTier(h.p)} to ${tier(h.p)}.`,
};

const isPrComment = (p: Wild) => p.at("issue").has("pull_request");

function commentAction(p: Wild): string {
  const action = p.at("action").str();
  return `${action === "created" ? "[commented]" : `${action} a [comment]`}(${p.at("comment").at("html_url").str()}) on`;
}

function issueComment(h: Helper): string {
  const issue = h.p.at("issue");
  return git.pullRequestMessage({
    userName: sender(h),
    action: commentAction(h.p),
    url: issue.at("html_url").str(),
    number: issue.at("number").int(),
    message: h.p.at("comment").at("body").str(),
    title: titleIf(h, issue),
    type: isPrComment(h.p) ? "PR" : "issue",
  });
}

function issueLabeled(h: Helper): string {
  const issue = h.p.at("issue");
  return git.issueLabeledMessage({
    userName: sender(h),
    action: h.p.at("action").str() === "labeled" ? "added" : "removed",
    url: issue.at("html_url").str(),
    number: issue.at("number").int(),
    label: h.p.at("label").at("name").str(),
    userUrl: senderUrl(h.p),
    title: titleIf(h, issue),
  });
}

function issueMilestoned(h: Helper): string {
  const issue = h.p.at("issue");
  return git.issueMilestonedMessage({
    userName: sender(h),
    action: h.p.at("action").str() === "milestoned" ? "added" : "removed",
    url: issue.at("html_url").str(),
    number: issue.at("number").int(),
    milestone: h.p.at("milestone").at("title").str(),
    milestoneUrl: h.p.at("milestone").at("html_url").str(),
    userUrl: senderUrl(h.p),
    title: titleIf(h, issue),
  });
}

const createOrDelete = (action: string) => (h: Helper) => `${sender(h)} ${action} ${h.p.at("ref_type").str()} ${h.p.at("ref").str()}.`.trimEnd();

function commitComment(h: Helper): string {
  const c = h.p.at("comment");
  const commentUrl = c.at("html_url").str();
  return git.commitCommentMessage(sender(h), `[commented](${commentUrl})`, commentUrl.split("#", 1)[0]!, c.at("commit_id").str(), c.at("body").str());
}

const pushTags = (h: Helper) => git.pushTagMessage(sender(h), tagOf(h.p.at("ref").str()), null, h.p.at("created").bool() ? "pushed" : "removed");

function pushCommits(h: Helper): string {
  const commits = h.p.at("commits").list().map((c) => ({
    name: c.at("author").get("username").truthy ? c.at("author").at("username").str() : c.at("author").at("name").str(),
    sha: c.at("id").str(),
    url: c.at("url").str(),
    message: c.at("message").str(),
  }));
  return git.pushCommitsMessage({
    userName: sender(h),
    compareUrl: h.p.at("compare").str(),
    branch: branchOf(h.p.at("ref").str()),
    commits,
    deleted: h.p.at("deleted").bool(),
    forcePush: h.p.at("forced").bool(),
  });
}

function release(h: Helper): string {
  const r = h.p.at("release");
  const name = r.get("name").truthy ? r.at("name").str() : r.at("tag_name").str();
  return git.releaseMessage(sender(h), h.p.at("action").str(), r.at("tag_name").str(), name, r.at("html_url").str());
}

function lockedPr(h: Helper): string {
  const pr = h.p.at("pull_request");
  const n = pr.at("number").int();
  const url = pr.at("html_url").str();
  if (h.p.at("action").str() === "unlocked") return `${sender(h)} has unlocked [PR #${n}](${url}).`;
  const reason = pr.get("active_lock_reason").truthy ? pr.at("active_lock_reason").str() : null;
  return `${sender(h)} has locked [PR #${n}](${url}) as ${git.py(reason)} and limited conversation to collaborators.`;
}

function autoMerge(h: Helper): string {
  const pr = h.p.at("pull_request");
  const verb = h.p.at("action").str() === "auto_merge_disabled" ? "disabled" : "enabled";
  return `${sender(h)} has ${verb} auto merge for [PR #${pr.at("number").int()}](${pr.at("html_url").str()}).`;
}

const readyForReview = (h: Helper) => `**${sender(h)}** has marked [PR #${h.p.at("pull_request").at("number").int()}](${h.p.at("pull_request").at("html_url").str()}) as ready for review.`;

function review(h: Helper): string {
  const pr = h.p.at("pull_request");
  return git.pullRequestMessage({
    userName: sender(h),
    action: "submitted",
    url: h.p.at("review").at("html_url").str(),
    type: "PR review",
    title: h.includeTitle ? `for #${pr.at("number").int()} ${pr.at("title").str()}` : null,
    message: h.p.at("review").at("body").strOrNull(),
  });
}

function reviewComment(h: Helper): string {
  const pr = h.p.at("pull_request");
  const action = h.p.at("action").str();
  return git.pullRequestMessage({
    userName: sender(h),
    action,
    url: h.p.at("comment").at("html_url").str(),
    message: action === "created" ? h.p.at("comment").at("body").str() : null,
    type: "PR review comment",
    title: h.includeTitle ? `on #${pr.at("number").int()} ${pr.at("title").str()}` : null,
  });
}

function reviewRequested(h: Helper): string {
  const pr = h.p.at("pull_request");
  let reviewers: string;
  if (h.p.has("requested_reviewer")) {
    const r = h.p.at("requested_reviewer");
    reviewers = `[${r.at("login").str()}](${r.at("html_url").str()})`;
  } else {
    const t = h.p.at("requested_team");
    reviewers = `[${t.at("name").str()}](${t.at("html_url").str()})`;
  }
  const link = h.includeTitle ? `PR #${pr.at("number").int()} ${pr.at("title").str()}` : `PR #${pr.at("number").int()}`;
  return `**${sender(h)}** requested ${reviewers} for a review on [${link}](${pr.at("html_url").str()}).`;
}

function checkRun(h: Helper): string {
  const c = h.p.at("check_run");
  const sha = c.at("head_sha").str();
  return `Check [${c.at("name").str()}](${c.at("html_url").str()}) ${c.at("status").str()} (${c.at("conclusion").str()}). ([${git.shortSha(sha)}](${h.p.at("repository").at("html_url").str()}/commit/${sha}))`;
}

function status(h: Helper): string {
  const state = h.p.at("state").str();
  const shown = h.p.get("target_url").truthy ? `[${state}](${h.p.at("target_url").str()})` : state;
  return `[${git.shortSha(h.p.at("sha").str())}](${h.p.at("commit").at("html_url").str()}) changed its status to ${shown}.`;
}

function wikiPages(h: Helper): string {
  let info = "";
  for (const page of h.p.at("pages").list()) info += `* ${page.at("action").str()} [${page.at("title").str()}](${page.at("html_url").str()})\n`;
  return `${sender(h)}:\n${info.trimEnd()}`;
}

function pageBuild(h: Helper): string {
  const build = h.p.at("build");
  const state = build.at("status").str();
  const actions: Record<string, string> = { null: "has yet to be built", building: "is being built", errored: "has failed: {}", built: "has finished building" };
  let action = Object.hasOwn(actions, state) ? actions[state]! : `is ${state}`;
  if (build.at("error").get("message").truthy) action = action.replace("{}", git.quote(build.at("error").at("message").str()));
  return `GitHub Pages build, triggered by ${build.at("pusher").at("login").str()}, ${action}.`;
}

function team(h: Helper): string {
  const changes = h.p.at("changes");
  if (changes.has("description")) return `**${sender(h)}** changed the team description to:\n\n~~~ quote\n${h.p.at("team").at("description").str()}\n~~~`;
  if (changes.has("name")) return `Team \`${changes.at("name").at("from").str()}\` was renamed to \`${h.p.at("team").at("name").str()}\`.`;
  if (changes.has("privacy")) return `Team visibility changed to \`${h.p.at("team").at("privacy").str()}\``;
  return `Team has changes to \`${changes.keys().sort().join("/")}\` data.`;
}

const discussion = (h: Helper) => {
  const d = h.p.at("discussion");
  return `${sender(h)} created [discussion #${d.at("number").int()}](${d.at("html_url").str()}) in ${d.at("category").at("name").str()}:\n\n~~~ quote\n### ${d.at("title").str()}\n${d.at("body").str()}\n~~~`;
};

const discussionComment = (h: Helper) => {
  const d = h.p.at("discussion");
  return git.pullRequestMessage({
    userName: sender(h),
    action: commentAction(h.p),
    url: d.at("html_url").str(),
    number: d.at("number").int(),
    message: h.p.at("comment").at("body").str(),
    title: titleIf(h, d),
    type: "discussion",
  });
};

/** A Json[bool] URL parameter as Zulip reads it: JSON true or false; anything else is refused. */
function isTrue(raw: string | undefined): boolean {
  if (raw === undefined || raw === "false") return false;
  if (raw === "true") return true;
  throw badRequest("ignore_private_repositories is not valid JSON");
}

const BODIES: Record<string, (h: Helper) => string> = {
  commit_comment: commitComment,
  closed_pull_request: closedPr,
  create: createOrDelete("created"),
  check_run: checkRun,
  delete: createOrDelete("deleted"),
  deployment: (h) => `${sender(h)} created new deployment.`,
  deployment_status: (h) => `Deployment changed status to ${h.p.at("deployment_status").at("state").str()}.`,
  discussion,
  discussion_comment: discussionComment,
  fork: (h) => `${sender(h)} forked [${h.p.at("forkee").at("name").str()}](${h.p.at("forkee").at("html_url").str()}).`,
  gollum: wikiPages,
  issue_comment: issueComment,
  issue_labeled_or_unlabeled: issueLabeled,
  issue_milestoned_or_demilestoned: issueMilestoned,
  issues: issueBody,
  issues_opened_via_transfer: issueOpenedViaTransfer,
  issues_transferred: issueTransferred,
  member: (h) =>
    `${sender(h)} ${h.p.at("action").str()} [${h.p.at("member").at("login").str()}](${h.p.at("member").at("html_url").str()}) to [${repoName(h.p)}](${h.p.at("repository").at("html_url").str()}).`,
  membership: (h) => {
    const action = h.p.at("action").str();
    const m = h.p.at("member");
    return `${sender(h)} ${action} [${m.at("login").str()}](${m.at("html_url").str()}) ${action === "removed" ? "from" : "to"} the ${h.p.at("team").at("name").str()} team.`;
  },
  opened_pull_request: openedOrUpdatedPr,
  updated_pull_request: openedOrUpdatedPr,
  assigned_or_unassigned_pull_request: assignedPr,
  page_build: pageBuild,
  ping: (h) => git.setupMessage("GitHub", sender(h)),
  public: (h) => `${sender(h)} made the repository [${repoFullName(h.p)}](${h.p.at("repository").at("html_url").str()}) public.`,
  pull_request_ready_for_review: readyForReview,
  pull_request_review: review,
  pull_request_review_comment: reviewComment,
  pull_request_review_requested: reviewRequested,
  pull_request_auto_merge: autoMerge,
  locked_or_unlocked_pull_request: lockedPr,
  push_commits: pushCommits,
  push_tags: pushTags,
  release,
  repository: (h) => `${sender(h)} ${h.p.at("action").str()} the repository [${repoFullName(h.p)}](${h.p.at("repository").at("html_url").str()}).`,
  star: (h) =>
    `[${sender(h)}](${senderUrl(h.p)}) ${h.p.at("action").str() === "created" ? "starred" : "unstarred"} the repository [${repoFullName(h.p)}](${h.p.at("repository").at("html_url").str()}).`,
  status,
  team,
  team_add: (h) => `The repository [${repoFullName(h.p)}](${h.p.at("repository").at("html_url").str()}) was added to team ${h.p.at("team").at("name").str()}.`,
  watch: (h) => `${sender(h)} starred the repository [${repoFullName(h.p)}](${h.p.at("repository").at("html_url").str()}).`,
  ...SPONSORSHIP,
};

const IGNORED_EVENTS = new Set(["check_suite", "label", "meta", "milestone", "organization", "project_card", "push__merge_queue", "repository_vulnerability_alert"]);
const IGNORED_PR_ACTIONS = new Set(["approved", "converted_to_draft", "labeled", "review_request_removed", "unlabeled"]);
const IGNORED_TEAM_ACTIONS = new Set(["added_to_repository", "created", "deleted", "removed_from_repository"]);

/** Zulip's get_zulip_event_name: the event to post, or null for one GitHub sends that is deliberately ignored. */
function zulipEvent(header: string, p: Wild, branches: string | undefined): string | null {
  if (header === "pull_request") {
    const action = p.at("action").str();
    if (action === "opened" || action === "reopened") return "opened_pull_request";
    if (action === "synchronize" || action === "edited") return "updated_pull_request";
    if (action === "assigned" || action === "unassigned") return "assigned_or_unassigned_pull_request";
    if (action === "closed") return "closed_pull_request";
    if (action === "review_requested") return "pull_request_review_requested";
    if (action === "ready_for_review") return "pull_request_ready_for_review";
    if (action === "locked" || action === "unlocked") return "locked_or_unlocked_pull_request";
    if (action === "auto_merge_enabled" || action === "auto_merge_disabled") return "pull_request_auto_merge";
    if (IGNORED_PR_ACTIONS.has(action)) return null;
  } else if (header === "pull_request_review") {
    // GitHub follows a review with an empty "edited" duplicate of its body
    if (p.at("action").str() === "edited" && !p.get("changes").truthy) return null;
    return header;
  } else if (header === "sponsorship") {
    // Zulip keys these by GitHub Sponsors' action (its fixtures send it as the event); GitHub's header is "sponsorship"
    const action = p.at("action").str();
    if (Object.hasOwn(SPONSORSHIP, action)) return action;
  } else if (header === "push") {
    const ref = p.at("ref").str();
    if (ref.startsWith("refs/heads/gh-readonly-queue/")) return null;
    if (ref.startsWith("refs/heads/")) {
      if (!git.isBranchNotifiable(branchOf(ref), branches)) return null;
      return "push_commits";
    }
    return "push_tags";
  } else if (header === "check_run") {
    return p.at("check_run").at("status").str() === "completed" ? header : null;
  } else if (header === "team") {
    const action = p.at("action").str();
    if (action === "edited") return "team";
    if (IGNORED_TEAM_ACTIONS.has(action)) return null;
    throw new UnsupportedEvent(NAME, `unsupported team action ${action}`);
  } else if (header === "issues") {
    const action = p.at("action").str();
    if (action === "labeled" || action === "unlabeled") return "issue_labeled_or_unlabeled";
    if (action === "milestoned" || action === "demilestoned") return "issue_milestoned_or_demilestoned";
    if (action === "transferred") return "issues_transferred";
    if (action === "opened" && p.get("changes").get("old_issue").truthy) return "issues_opened_via_transfer";
    return "issues";
  } else if (Object.hasOwn(BODIES, header)) return header;
  else if (IGNORED_EVENTS.has(header)) return null;
  const action = p.get("action").value === undefined ? "???" : p.at("action").str();
  throw new UnsupportedEvent(NAME, `${header}:${action}`);
}

function topicFor(p: Wild, event: string): string {
  if (event.includes("pull_request")) {
    const pr = p.at("pull_request");
    return git.topicWithPrOrIssue(repoName(p), "PR", pr.at("number").int(), pr.at("title").str());
  }
  if (event.startsWith("issue")) {
    const issue = p.at("issue");
    return git.topicWithPrOrIssue(repoName(p), isPrComment(p) ? "PR" : "issue", issue.at("number").int(), issue.at("title").str());
  }
  if (event.startsWith("deployment")) return `${repoName(p)} / Deployment on ${p.at("deployment").at("environment").str()}`;
  if (event === "membership") return `${p.at("organization").at("login").str()} organization`;
  if (event === "team") return `team ${p.at("team").at("name").str()}`;
  if (event === "push_commits") return git.topicWithBranch(repoName(p), branchOf(p.at("ref").str()));
  if (event === "gollum") return git.topicWithBranch(repoName(p), "wiki pages");
  if (event === "ping" && !p.get("repository").truthy) return p.at("organization").at("login").str();
  if (event === "check_run") return `${repoName(p)} / checks`;
  if (event.startsWith("discussion")) {
    const d = p.at("discussion");
    return `${repoName(p)} discussion #${d.at("number").int()}: ${d.at("title").str()}`;
  }
  if (Object.hasOwn(SPONSORSHIP, event)) return "sponsors";
  return repoName(p);
}

export const github: Integration = {
  name: "github",
  displayName: NAME,
  eventTypes: Object.keys(BODIES),
  externalAccount(p) {
    const login = p.get("sender").get("login").value;
    return typeof login === "string" ? { subtype: "github", name: login } : null;
  },
  handle(req: WebhookRequest) {
    const header = eventHeader(req, "X-GitHub-Event", NAME);
    const p = req.payload;
    // every GitHub event names its sender: one without is refused before anything else, as Zulip does
    p.at("sender").at("login").str();
    if (isTrue(req.params.ignore_private_repositories) && p.has("repository") && p.at("repository").at("private").bool()) return [];
    // an edit that leaves a comment's text as it was says nothing (discussion comments excepted, as Zulip does)
    if (header.includes("comment") && !header.includes("discussion") && p.get("action").value === "edited" && p.at("changes").at("body").at("from").str() === p.at("comment").at("body").str()) return [];
    const event = zulipEvent(header, p, req.params.branches);
    if (event === null) return [];
    const knownAs = req.accountHolders?.length === 1 ? req.accountHolders[0]! : null;
    const body = BODIES[event]!({ p: req.payload, includeTitle: req.params.topic !== undefined, knownAs });
    return [{ topic: topicFor(req.payload, event), body, event }];
  },
};
