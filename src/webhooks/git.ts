// The message pieces Zulip's forge integrations share (zerver/lib/webhooks/git.py), as pure functions.

export const EMPTY_SHA = "0000000000000000000000000000000000000000";
/** Zulip lists at most this many commits of a push, then "[and N more commit(s)]". */
export const COMMITS_LIMIT = 20;
/** Committers named in a push's summary before "others". */
const COMMITTERS_LIMIT = 3;
const PUNCTUATION = new Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");

/** Zulip's is_branch_name_notifiable: `branches` is a comma-separated list of exact names (spaces around them ignored). */
export const isBranchNotifiable = (branch: string, branches: string | undefined) => branches === undefined || branches.split(",").some((b) => b.trim() === branch);

export const topicWithBranch = (repo: string, branch: string) => `${repo} / ${branch}`;
export const topicWithPrOrIssue = (repo: string, type: string, id: number | string, title: string) => `${repo} / ${type} #${id} ${title}`;
export const topicWithRelease = (repo: string, tag: string, title: string) => `${repo} / ${tag} ${title}`;

export const quote = (message: string) => `\n~~~ quote\n${message}\n~~~`;
export const shortSha = (sha: string) => sha.slice(0, 11);
const endsWithPunctuation = (s: string) => s.length > 0 && PUNCTUATION.has(s[s.length - 1]!);
/** Python's str(None) where Zulip formats a missing value into a template. */
export const py = (v: unknown) => (v === null || v === undefined ? "None" : String(v));

export interface Commit {
  name: string;
  sha: string;
  url: string | null;
  message: string;
}

/** Committers by number of commits (ties by name), the fourth and later summed as "others". */
function committers(commits: Commit[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const c of commits) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
  let items = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (items.length > COMMITTERS_LIMIT) {
    const others = items.slice(COMMITTERS_LIMIT).reduce((n, [, k]) => n + k, 0);
    items = [...items.slice(0, COMMITTERS_LIMIT), ["others", others]];
  }
  return items;
}

export function commitsContent(commits: Commit[], isTruncated = false): string {
  let out = "";
  for (const c of commits.slice(0, COMMITS_LIMIT)) out += `* ${c.message.split("\n", 1)[0]} ([${shortSha(c.sha)}](${py(c.url)}))\n`;
  if (commits.length > COMMITS_LIMIT) out += `[and ${commits.length - COMMITS_LIMIT} more commit(s)]`;
  else if (isTruncated) out += "[and more commit(s)]";
  return out.trimEnd();
}

export function pushCommitsMessage(o: {
  userName: string;
  compareUrl: string | null;
  branch: string;
  commits: Commit[];
  isTruncated?: boolean;
  deleted?: boolean;
  forcePush?: boolean;
  repositoryName?: string | null;
  repositoryUrl?: string | null;
}): string {
  const { userName, compareUrl, branch, commits } = o;
  if (!commits.length && o.deleted) return `${userName} [deleted](${py(compareUrl)}) the branch ${branch}.`;
  const pushType = o.forcePush ? "force pushed" : "pushed";
  if (!commits.length) return compareUrl ? `${userName} [${pushType}](${compareUrl}) the branch ${branch}.` : `${userName} ${pushType} the branch ${branch}.`;
  const n = `${commits.length} commit${commits.length > 1 ? "s" : ""}`;
  const pushed = compareUrl ? `[${pushType}](${compareUrl}) ${n}` : `${pushType} ${n}`;
  const base =
    o.repositoryName && o.repositoryUrl ? `${userName} ${pushed} to branch ${branch} of [${o.repositoryName}](${o.repositoryUrl}).` : `${userName} ${pushed} to branch ${branch}.`;
  const items = committers(commits);
  const content = commitsContent(commits, o.isTruncated);
  if (items.length === 1 && items[0]![0] === userName) return `${base}\n\n${content}\n`.trimEnd();
  let details = `${items[0]![0]} (${items[0]![1]})`;
  for (const [name, k] of items.slice(1, -1)) details += `, ${name} (${k})`;
  if (items.length > 1) details += ` and ${items.at(-1)![0]} (${items.at(-1)![1]})`;
  return `${base} Commits by ${details}.\n\n${content}\n`.trimEnd();
}

export const forcePushMessage = (userName: string, url: string, branch: string, head: string) => `${userName} [force pushed](${url}) to branch ${branch}. Head is now ${head}.`;
export const createBranchMessage = (userName: string, url: string | null, branch: string) =>
  url === null ? `${userName} created ${branch} branch.` : `${userName} created [${branch}](${url}) branch.`;
export const removeBranchMessage = (userName: string, branch: string) => `${userName} deleted branch ${branch}.`;

/** Zulip's get_pull_request_event_message (issues use it with type "issue"). */
export function pullRequestMessage(o: {
  userName: string;
  action: string;
  url: string;
  number?: number | string | null;
  targetBranch?: string | null;
  baseBranch?: string | null;
  message?: string | null;
  assignee?: string | null;
  assignees?: { username: string }[] | null;
  assigneeUpdated?: string | null;
  reviewer?: string | null;
  type?: string;
  title?: string | null;
}): string {
  const action = o.action === "approval" ? "added their approval for" : o.action === "unapproval" ? "removed their approval for" : o.action;
  const id = o.number !== null && o.number !== undefined ? ` #${o.number}` : "";
  const title = o.title !== null && o.title !== undefined ? ` ${o.title}` : "";
  // Zulip names the assignee for these two actions whatever it was given ("None" when nothing)
  const assigneePart = o.action === "assigned" ? ` ${py(o.assigneeUpdated)} to` : o.action === "unassigned" ? ` ${py(o.assigneeUpdated)} from` : "";
  let main = `${o.userName} ${action}${assigneePart} [${o.type ?? "PR"}${id}${title}](${o.url})`;
  if (o.targetBranch && o.baseBranch) main += ` from \`${o.targetBranch}\` to \`${o.baseBranch}\``;
  if (o.assignees?.length) main += ` (assigned to ${assigneeString(o.assignees)})`;
  else if (o.assignee) main += ` (assigned to ${o.assignee})`;
  else if (o.reviewer) main += ` (assigned reviewers: ${o.reviewer})`;
  const punctuation = o.message ? ":" : ".";
  if (o.assignees?.length || o.assignee || (o.targetBranch && o.baseBranch) || o.title === null || o.title === undefined || !endsWithPunctuation(o.title)) main += punctuation;
  if (o.message) main += "\n" + quote(o.message);
  return main.trimEnd();
}

export function assigneeString(assignees: { username: string }[]): string {
  if (assignees.length === 1) return assignees[0]!.username;
  const names = assignees.map((a) => a.username);
  return names.slice(0, -1).join(", ") + " and " + names.at(-1);
}

export const issueMessage = (o: Omit<Parameters<typeof pullRequestMessage>[0], "type" | "targetBranch" | "baseBranch" | "reviewer">) => pullRequestMessage({ ...o, type: "issue" });

export function issueLabeledMessage(o: { userName: string; action: string; url: string; number: number; label: string; userUrl: string; title?: string | null }): string {
  const preposition = o.action === "added" ? "to" : "from";
  const issue = o.title !== null && o.title !== undefined ? `Issue #${o.number} ${o.title}` : `Issue #${o.number}`;
  return `[${o.userName}](${o.userUrl}) ${o.action} the ${o.label} label ${preposition} [${issue}](${o.url}).`;
}

export function issueMilestonedMessage(o: { userName: string; action: string; url: string; number: number; milestone: string; milestoneUrl: string; userUrl: string; title?: string | null }): string {
  const preposition = o.action === "added" ? "to" : "from";
  const issue = o.title !== null && o.title !== undefined ? `issue #${o.number} ${o.title}` : `issue #${o.number}`;
  return `[${o.userName}](${o.userUrl}) ${o.action} milestone [${o.milestone}](${o.milestoneUrl}) ${preposition} [${issue}](${o.url}).`;
}

export function pushTagMessage(userName: string, tag: string, tagUrl: string | null = null, action = "pushed"): string {
  const message = `${userName} ${action} tag ${tagUrl ? `[${tag}](${tagUrl})` : tag}`;
  return endsWithPunctuation(tag) ? message : `${message}.`;
}

export function commitCommentMessage(userName: string, action: string, commitUrl: string, sha: string, message: string | null = null): string {
  let content = `${userName} ${action} on [${shortSha(sha)}](${commitUrl})${message ? ":" : "."}`;
  if (message) content += quote(message);
  return content;
}

export const releaseMessage = (userName: string, action: string, tag: string, releaseName: string, url: string) => `${userName} ${action} release [${releaseName}](${url}) for tag ${tag}.`;

export const setupMessage = (integration: string, userName?: string | null) => `${integration} webhook has been successfully configured${userName ? ` by ${userName}` : ""}.`;
