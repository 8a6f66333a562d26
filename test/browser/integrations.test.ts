/**
 * The Integrations section: a person makes a bot for a tool, copies the URL it shows, and sees what the
 * bot received; checked on the page and in what the server stored.
 */
import { describe, expect, test } from "bun:test";
import { browserSuite, eventually } from "./helpers";

const suite = browserSuite(async (s) => {
  (await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: "forge" }], principals: [s.users.iago.id, s.users.hamlet.id] })).success();
});

describe("the Integrations section", () => {
  test("makes a bot for GitHub, gives its URL with where to paste it, and lists what the bot received", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", "/#settings/integrations");
    const panel = page.getByRole("dialog", { name: "Settings" });
    await panel.getByLabel("Integration", { exact: true }).selectOption("github");
    await panel.getByRole("button", { name: "Create a bot for GitHub" }).click();
    await panel.getByText("GitHub notifications was created.").waitFor();
    const bot = (await suite.s.app.db.get<{ id: number; api_key: string; bot_type: number; bot_owner_id: number; email: string }>("SELECT id, api_key, bot_type, bot_owner_id, email FROM users WHERE full_name = 'GitHub notifications'"))!;
    expect(bot).toMatchObject({ bot_type: 2, bot_owner_id: suite.s.users.hamlet.id, email: "github-bot@parley.test" });
    await panel.getByLabel("Topic (optional: the integration chooses one otherwise)").fill("commits");
    const url = panel.getByLabel("URL for GitHub");
    await eventually(() => url.inputValue(), `${suite.base}/api/v1/external/github?api_key=${bot.api_key}&stream=forge&topic=commits`);
    await panel.getByText("Repository → Settings → Webhooks → Add webhook: paste this as the Payload URL.").waitFor();
    await panel.getByText("This bot has received nothing yet.").waitFor();

    // the tool posts: a ping that works, then a body that is not JSON
    const ping = { zen: "z", hook_id: 1, repository: { name: "parley", full_name: "o/parley", html_url: "https://github.com/o/parley" }, sender: { login: "octocat", html_url: "https://github.com/octocat" } };
    const target = await url.inputValue();
    expect((await fetch(target, { method: "POST", headers: { "content-type": "application/json", "x-github-event": "ping" }, body: JSON.stringify(ping) })).status).toBe(200);
    expect((await fetch(target, { method: "POST", headers: { "content-type": "application/json", "x-github-event": "ping" }, body: "{oops" })).status).toBe(400);
    const stored = await suite.s.app.db.get<{ topic: string; content: string }>("SELECT topic, content FROM messages WHERE sender_id = ? ORDER BY id DESC LIMIT 1", [bot.id]);
    expect(stored).toEqual({ topic: "commits", content: "GitHub webhook has been successfully configured by octocat." });

    await panel.getByRole("button", { name: "Refresh" }).click();
    const list = panel.getByRole("list", { name: "Last requests received" });
    await list.getByText("400: Malformed JSON").waitFor();
    expect(await list.locator("li").count()).toBe(2);
    expect(await list.locator("li").nth(1).textContent()).toContain("posted");

    // only some events: the URL carries them as only_events, and the server then posts those alone
    await panel.getByText("Only some events").click();
    await panel.getByRole("group", { name: "Events to post (none ticked: all of them)" }).getByLabel("push_tags", { exact: true }).check();
    await eventually(async () => new URL(await url.inputValue()).searchParams.get("only_events"), '["push_tags"]');
    const before = (await suite.s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM messages WHERE sender_id = ?", [bot.id]))!.n;
    expect((await fetch(await url.inputValue(), { method: "POST", headers: { "content-type": "application/json", "x-github-event": "ping" }, body: JSON.stringify(ping) })).status).toBe(200);
    expect((await suite.s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM messages WHERE sender_id = ?", [bot.id]))!.n).toBe(before);
    expect(errors).toEqual([]);
  }, 30_000);

  test("an outgoing-webhook bot is created in Bots with its endpoint and format", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", "/#settings/your-bots");
    const panel = page.getByRole("dialog", { name: "Settings" });
    await panel.getByLabel("Bot type").selectOption("3");
    await panel.getByLabel("Name", { exact: true }).fill("Deploy helper");
    await panel.getByLabel(/^Bot email/).fill("deployer");
    await panel.getByRole("button", { name: "Create bot" }).click();
    await panel.getByText("An outgoing webhook needs the URL of its server.").waitFor();
    await panel.getByLabel(/^Endpoint URL/).fill("https://bots.example.com/deploy");
    await panel.getByLabel("Outgoing webhook message format").selectOption("2");
    await panel.getByRole("button", { name: "Create bot" }).click();
    await panel.getByText("Deploy helper was created.").waitFor();
    const stored = await suite.s.app.db.get<{ bot_type: number; base_url: string; interface: number }>(
      "SELECT u.bot_type, s.base_url, s.interface FROM users u JOIN bot_services s ON s.bot_id = u.id WHERE u.full_name = 'Deploy helper'",
    );
    expect(stored).toEqual({ bot_type: 3, base_url: "https://bots.example.com/deploy", interface: 2 });
    await panel.getByRole("list", { name: "Your bots" }).getByText("Deploy helper").waitFor();
    expect(errors).toEqual([]);
  }, 30_000);
});
