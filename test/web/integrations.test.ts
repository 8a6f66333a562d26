import { describe, expect, test } from "bun:test";
import { freeBotPrefix, INTEGRATIONS, webhookUrl } from "../../assets/app/views/settings/integrations/catalog";
import { INTEGRATIONS as SERVER_INTEGRATIONS } from "../../src/webhooks";

describe("the integrations page's catalog", () => {
  test("lists exactly the integrations the server has, each with two lines on where the URL goes", () => {
    expect(INTEGRATIONS.map((i) => i.name).sort()).toEqual([...SERVER_INTEGRATIONS.keys()].sort());
    for (const i of INTEGRATIONS) expect(i.where.every((line) => line.length > 10)).toBe(true);
  });

  test("the events offered for only_events are exactly the names the server posts under", () => {
    for (const i of INTEGRATIONS) expect([i.name, i.events ?? null]).toEqual([i.name, SERVER_INTEGRATIONS.get(i.name)!.eventTypes ?? null]);
    expect(INTEGRATIONS.filter((i) => i.events).map((i) => i.name)).toEqual(["github", "gitlab", "gitea", "grafana"]);
  });

  test("the URL is Zulip's scheme, with the channel and topic encoded and no empty topic", () => {
    expect(webhookUrl("https://chat.example.com/", "github", "abc123", "dev ops", "")).toBe("https://chat.example.com/api/v1/external/github?api_key=abc123&stream=dev+ops");
    expect(webhookUrl("https://chat.example.com", "grafana", "k", "alerts", " disk & cpu ")).toBe("https://chat.example.com/api/v1/external/grafana?api_key=k&stream=alerts&topic=disk+%26+cpu");
    const only = new URL(webhookUrl("https://chat.example.com", "github", "k", "dev", "", ["push_commits", "issues"])).searchParams.get("only_events");
    expect(JSON.parse(only!)).toEqual(["push_commits", "issues"]);
  });

  test("a new bot's email prefix is free: the integration's name, then numbered", () => {
    expect(freeBotPrefix("slack_incoming", [])).toBe("slack-incoming");
    expect(freeBotPrefix("github", ["github-bot@x.test", "github-2-bot@x.test", "other-bot@x.test"])).toBe("github-3");
  });
});
