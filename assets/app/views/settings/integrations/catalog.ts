/**
 * The incoming-webhook integrations the server has (src/webhooks/), with where a person pastes the URL
 * in each tool, and the URL itself (Zulip's scheme). Pure: tested in test/web/integrations.test.ts.
 */
export interface IntegrationInfo {
  name: string;
  label: string;
  /** two lines on where the URL goes in the tool */
  where: [string, string];
}

export const INTEGRATIONS: IntegrationInfo[] = [
  { name: "slack_incoming", label: "Slack-compatible (Uptime Kuma, CI, …)", where: ["In the tool's notifications, choose Slack (or \"Slack webhook\") and paste this as the webhook URL.", "Uptime Kuma: Settings → Notifications → Setup Notification → Slack."] },
  { name: "github", label: "GitHub", where: ["Repository → Settings → Webhooks → Add webhook: paste this as the Payload URL.", "Choose the content type application/json and the events to send."] },
  { name: "gitlab", label: "GitLab", where: ["Project → Settings → Webhooks → Add new webhook: paste this as the URL.", "Tick the events to send (pushes, merge requests, pipelines…)."] },
  { name: "gitea", label: "Gitea / Forgejo", where: ["Repository → Settings → Webhooks → Add webhook → Gitea (Forgejo: Forgejo): paste this as the Target URL.", "Choose POST with content type application/json."] },
  { name: "grafana", label: "Grafana", where: ["Alerting → Contact points → Add contact point, integration Webhook: paste this as the URL.", "Then route your alerts to that contact point in a notification policy."] },
  { name: "alertmanager", label: "Prometheus Alertmanager", where: ["In alertmanager.yml, add a receiver with webhook_configs: - url: this URL.", "Alerts are grouped by the instance label; add &name=… or &desc=… to choose others."] },
  { name: "homeassistant", label: "Home Assistant", where: ["In configuration.yaml, add a notify platform rest with resource: this URL and method: POST_JSON.", "Call that notify service with a message (and data: topic: … for a topic of your own)."] },
  { name: "sentry", label: "Sentry", where: ["Settings → Developer Settings → New Internal Integration: paste this as the Webhook URL.", "Turn on Alert Rule Action and the issue events, then add the integration to an alert rule."] },
  { name: "json", label: "Any JSON (shown as code)", where: ["Paste this wherever a tool asks for a webhook URL that receives JSON.", "Each payload is posted as a JSON code block."] },
];

/** The URL a tool posts to: /api/v1/external/<integration>?api_key=…&stream=…[&topic=…]. */
export function webhookUrl(site: string, integration: string, apiKey: string, channel: string, topic: string): string {
  const params = new URLSearchParams({ api_key: apiKey, stream: channel });
  if (topic.trim()) params.set("topic", topic.trim());
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
