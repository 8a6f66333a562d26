/**
 * The incoming-webhook integrations the server has (src/webhooks/), with where a person pastes the URL
 * in each tool, and the URL itself (Zulip's scheme). Pure: tested in test/web/integrations.test.ts.
 */
export interface IntegrationInfo {
  name: string;
  label: string;
  /** two lines on where the URL goes in the tool */
  where: [string, string];
  /** the event names the server posts under, for only_events (the server's eventTypes; none: not filterable) */
  events?: readonly string[];
}

// The servers' event names (src/webhooks/<name>.ts, as Zulip's all_event_types), checked against it in test/web/integrations.test.ts
const GITHUB_EVENTS = ["commit_comment", "closed_pull_request", "create", "check_run", "delete", "deployment", "deployment_status", "discussion", "discussion_comment", "fork", "gollum", "issue_comment", "issue_labeled_or_unlabeled", "issue_milestoned_or_demilestoned", "issues", "issues_opened_via_transfer", "issues_transferred", "member", "membership", "opened_pull_request", "updated_pull_request", "assigned_or_unassigned_pull_request", "page_build", "ping", "public", "pull_request_ready_for_review", "pull_request_review", "pull_request_review_comment", "pull_request_review_requested", "pull_request_auto_merge", "locked_or_unlocked_pull_request", "push_commits", "push_tags", "release", "repository", "star", "status", "team", "team_add", "watch", "cancelled", "created", "edited", "pending_cancellation", "pending_tier_change", "tier_changed"];
const GITLAB_EVENTS = ["Push Hook", "Tag Push Hook", "Test Hook", "Issue Hook open", "Issue Hook close", "Issue Hook reopen", "Issue Hook update", "Confidential Issue Hook open", "Confidential Issue Hook close", "Confidential Issue Hook reopen", "Confidential Issue Hook update", "Note Hook Commit", "Note Hook MergeRequest", "Note Hook Issue", "Confidential Note Hook Issue", "Note Hook DesignManagement::Design", "Confidential Note Hook DesignManagement::Design", "Note Hook Snippet", "Merge Request Hook approved", "Merge Request Hook unapproved", "Merge Request Hook approval", "Merge Request Hook unapproval", "Merge Request Hook open", "Merge Request Hook update", "Merge Request Hook merge", "Merge Request Hook close", "Merge Request Hook reopen", "Wiki Page Hook create", "Wiki Page Hook update", "Job Hook", "Build Hook", "Pipeline Hook", "Release Hook", "Deployment Hook", "Feature Flag Hook", "Resource Access Token Hook"];
const GITEA_EVENTS = ["push", "create", "pull_request", "issues", "issue_comment", "release", "delete", "pull_request_comment"];
const GRAFANA_EVENTS = ["ok", "pending", "alerting", "paused", "firing", "resolved"];

export const INTEGRATIONS: IntegrationInfo[] = [
  { name: "slack_incoming", label: "Slack-compatible (Uptime Kuma, CI, …)", where: ["In the tool's notifications, choose Slack (or \"Slack webhook\") and paste this as the webhook URL.", "Uptime Kuma: Settings → Notifications → Setup Notification → Slack."] },
  { name: "github", label: "GitHub", where: ["Repository → Settings → Webhooks → Add webhook: paste this as the Payload URL.", "Choose the content type application/json and the events to send."], events: GITHUB_EVENTS },
  { name: "gitlab", label: "GitLab", where: ["Project → Settings → Webhooks → Add new webhook: paste this as the URL.", "Tick the events to send (pushes, merge requests, pipelines…)."], events: GITLAB_EVENTS },
  { name: "gitea", label: "Gitea / Forgejo", where: ["Repository → Settings → Webhooks → Add webhook → Gitea (Forgejo: Forgejo): paste this as the Target URL.", "Choose POST with content type application/json."], events: GITEA_EVENTS },
  { name: "grafana", label: "Grafana", where: ["Alerting → Contact points → Add contact point, integration Webhook: paste this as the URL.", "Then route your alerts to that contact point in a notification policy."], events: GRAFANA_EVENTS },
  { name: "alertmanager", label: "Prometheus Alertmanager", where: ["In alertmanager.yml, add a receiver with webhook_configs: - url: this URL.", "Alerts are grouped by the instance label; add &name=… or &desc=… to choose others."] },
  { name: "homeassistant", label: "Home Assistant", where: ["In configuration.yaml, add a notify platform rest with resource: this URL and method: POST_JSON.", "Call that notify service with a message (and data: topic: … for a topic of your own)."] },
  { name: "sentry", label: "Sentry", where: ["Settings → Developer Settings → New Internal Integration: paste this as the Webhook URL.", "Turn on Alert Rule Action and the issue events, then add the integration to an alert rule."] },
  { name: "json", label: "Any JSON (shown as code)", where: ["Paste this wherever a tool asks for a webhook URL that receives JSON.", "Each payload is posted as a JSON code block."] },
];

/** The URL a tool posts to: /api/v1/external/<integration>?api_key=…&stream=…[&topic=…][&only_events=[…]]. */
export function webhookUrl(site: string, integration: string, apiKey: string, channel: string, topic: string, onlyEvents: readonly string[] = []): string {
  const params = new URLSearchParams({ api_key: apiKey, stream: channel });
  if (topic.trim()) params.set("topic", topic.trim());
  if (onlyEvents.length) params.set("only_events", JSON.stringify(onlyEvents));
  return `${site.replace(/\/$/, "")}/api/v1/external/${integration}?${params.toString()}`;
}

/** A free bot email prefix for a new integration bot: "github", then "github-2", … */
export function freeBotPrefix(integration: string, takenEmails: string[]): string {
  const base = integration.replace(/_/g, "-");
  const taken = new Set(takenEmails.map((e) => e.split("@")[0]!.replace(/-bot$/, "")));
  for (let n = 1; ; n++) {
    const prefix = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(prefix)) return prefix;
  }
}
