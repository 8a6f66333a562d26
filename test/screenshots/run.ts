#!/usr/bin/env bun
// npm run screenshots: the README's pictures of the web app. Starts Parley from source on a temporary
// data dir, seeds a small team through the public API (an organization, six people, four channels with
// several topics, Markdown, a code block, reactions, an uploaded image and its thumbnail, a poll, direct
// messages, some of them unread), backdates the messages so their times read like a real week, and drives
// Debian's Chromium (through playwright-core, as test/browser does) to capture the main views into
// docs/screenshots/*.png, re-encoded with sharp (a palette PNG) to keep the repository small.
// Not part of `npm test`: run it when the app's look changes, look at the pictures, and commit them.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import sharp from "sharp";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../helpers/chromium";
import { runParley, startParley, type ServeProcess } from "../helpers/serve-process";

const ROOT = join(import.meta.dir, "../..");
const OUT = join(ROOT, "docs/screenshots");
const PASSWORD = "lighthouse-demo";
const log = (msg: string) => process.stderr.write(`[screenshots] ${msg}\n`);

const PEOPLE = {
  ada: { email: "ada@lighthouse.example", name: "Ada Okafor" },
  ben: { email: "ben@lighthouse.example", name: "Ben Carter" },
  chiara: { email: "chiara@lighthouse.example", name: "Chiara Rossi" },
  dev: { email: "dev@lighthouse.example", name: "Dev Patel" },
  emma: { email: "emma@lighthouse.example", name: "Emma Lindqvist" },
  farah: { email: "farah@lighthouse.example", name: "Farah Haddad" },
} as const;
type Who = keyof typeof PEOPLE;

interface Account {
  id: number;
  auth: string;
}

const dir = mkdtempSync(join(tmpdir(), "parley-screenshots-"));
const accounts = {} as Record<Who, Account>;
let server: ServeProcess | undefined;
let browser: Browser | undefined;

async function api(who: Who, method: string, path: string, body?: Record<string, unknown> | FormData): Promise<any> {
  const init: RequestInit = { method, headers: { Authorization: accounts[who].auth } };
  if (body instanceof FormData) init.body = body;
  else if (body) {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(body)) form.set(k, typeof v === "string" ? v : JSON.stringify(v));
    init.body = form;
  }
  const res = await fetch(`${server!.base}/api/v1${path}`, init);
  const json: any = await res.json();
  if (json.result !== "success") throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
  return json;
}

interface Planned {
  who: Who;
  /** how long before the capture it should read as sent, in minutes */
  minutesAgo: number;
  to: { channel: number; topic: string } | { dm: Who[] };
  content: string;
  /** once sent */
  id: number;
}
const planned: Planned[] = [];
const sent: Planned[] = [];

function say(who: Who, minutesAgo: number, to: Planned["to"], content: string): Planned {
  const m = { who, minutesAgo, to, content, id: 0 };
  planned.push(m);
  return m;
}

/** Sends the planned messages oldest first, so their ids grow with their (later backdated) times. */
async function sendPlanned() {
  for (const m of planned.splice(0).sort((a, b) => b.minutesAgo - a.minutesAgo)) {
    const body = "channel" in m.to ? { type: "stream", to: m.to.channel, topic: m.to.topic, content: m.content } : { type: "direct", to: m.to.dm.map((w) => accounts[w].id), content: m.content };
    m.id = (await api(m.who, "POST", "/messages", body)).id;
    sent.push(m);
  }
}

async function react(who: Who, message: number, emoji: string) {
  await api(who, "POST", `/messages/${message}/reactions`, { emoji_name: emoji });
}

/** A mock-up of a sign-up screen, drawn as SVG and made a PNG: the image someone shares in #design. */
async function mockupPng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="600" viewBox="0 0 960 600">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#e8f1fb"/><stop offset="1" stop-color="#f6e9f3"/></linearGradient></defs>
  <rect width="960" height="600" fill="url(#bg)"/>
  <g font-family="DejaVu Sans, sans-serif">
    <rect x="80" y="60" width="360" height="480" rx="28" fill="#fff" stroke="#cfd8e3" stroke-width="2"/>
    <circle cx="260" cy="150" r="42" fill="#3b6fd8"/>
    <path d="M240 150 l14 14 l28 -30" stroke="#fff" stroke-width="8" fill="none" stroke-linecap="round" stroke-linejoin="round"/>
    <text x="260" y="232" text-anchor="middle" font-size="26" font-weight="bold" fill="#1f2a3a">Welcome aboard</text>
    <text x="260" y="264" text-anchor="middle" font-size="15" fill="#5b6b80">Create your team in one minute</text>
    <rect x="120" y="296" width="280" height="44" rx="10" fill="#f1f4f8" stroke="#cfd8e3"/>
    <text x="136" y="324" font-size="15" fill="#8795a8">Team name</text>
    <rect x="120" y="352" width="280" height="44" rx="10" fill="#f1f4f8" stroke="#cfd8e3"/>
    <text x="136" y="380" font-size="15" fill="#8795a8">Your email</text>
    <rect x="120" y="420" width="280" height="48" rx="10" fill="#3b6fd8"/>
    <text x="260" y="450" text-anchor="middle" font-size="17" font-weight="bold" fill="#fff">Get started</text>
    <rect x="520" y="60" width="360" height="480" rx="28" fill="#fff" stroke="#cfd8e3" stroke-width="2"/>
    <text x="560" y="120" font-size="22" font-weight="bold" fill="#1f2a3a">Invite your team</text>
    <g fill="#1f2a3a" font-size="15">
      <circle cx="578" cy="176" r="18" fill="#e0a458"/><text x="608" y="181">chiara@lighthouse.example</text>
      <circle cx="578" cy="230" r="18" fill="#6fb37a"/><text x="608" y="235">dev@lighthouse.example</text>
      <circle cx="578" cy="284" r="18" fill="#b57ad1"/><text x="608" y="289">emma@lighthouse.example</text>
    </g>
    <rect x="560" y="420" width="280" height="48" rx="10" fill="#fff" stroke="#3b6fd8" stroke-width="2"/>
    <text x="700" y="450" text-anchor="middle" font-size="17" font-weight="bold" fill="#3b6fd8">Send invitations</text>
  </g>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Ada's avatar: a lighthouse on her colour, drawn as SVG. */
async function avatarPng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <rect width="256" height="256" fill="#3b6fd8"/>
  <circle cx="128" cy="96" r="54" fill="#ffd76a" opacity="0.35"/>
  <path d="M108 214 L116 96 H140 L148 214 Z" fill="#fff"/>
  <path d="M116 128 H140 M113 164 H143" stroke="#e0574f" stroke-width="12"/>
  <rect x="110" y="78" width="36" height="20" rx="4" fill="#ffd76a"/>
  <path d="M104 78 L128 58 L152 78 Z" fill="#e0574f"/>
  <rect x="0" y="214" width="256" height="42" fill="#2a55b0"/>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function seed() {
  log(`data dir ${dir}`);
  const init = runParley(["init", "--data-dir", dir, "--org-name", "Lighthouse Labs", "--email", PEOPLE.ada.email, "--full-name", PEOPLE.ada.name, "--password", PASSWORD]);
  const made: Record<string, { user_id: number; api_key: string }> = { ada: JSON.parse(init.out) };
  for (const who of ["ben", "chiara", "dev", "emma", "farah"] as const) {
    const p = runParley(["create-user", "--data-dir", dir, "--email", PEOPLE[who].email, "--full-name", PEOPLE[who].name, "--password", PASSWORD]);
    made[who] = JSON.parse(p.out);
  }
  for (const who of Object.keys(PEOPLE) as Who[]) {
    accounts[who] = { id: made[who]!.user_id, auth: "Basic " + btoa(`${PEOPLE[who].email}:${made[who]!.api_key}`) };
  }
  server = await startParley(["serve", "--data-dir", dir, "--port", "0"]);

  const everyone = (Object.keys(PEOPLE) as Who[]).map((w) => accounts[w].id);
  const channels: Record<string, number> = {};
  const channelInfo: [string, string][] = [
    ["general", "Everything that concerns the whole team"],
    ["engineering", "Building and shipping Lighthouse"],
    ["design", "Sketches, mock-ups and critiques"],
    ["random", "Coffee, cats and the rest"],
  ];
  for (const [name, description] of channelInfo) {
    await api("ada", "POST", "/users/me/subscriptions", { subscriptions: [{ name, description }], principals: everyone });
  }
  const subs = await api("ada", "GET", "/users/me/subscriptions");
  for (const s of subs.subscriptions) channels[s.name] = s.stream_id;
  await api("ada", "POST", "/users/me/subscriptions/properties", { subscription_data: [{ stream_id: channels.engineering, property: "pin_to_top", value: true }] });

  const eng = (topic: string) => ({ channel: channels.engineering!, topic });
  const gen = (topic: string) => ({ channel: channels.general!, topic });
  const des = (topic: string) => ({ channel: channels.design!, topic });
  const rnd = (topic: string) => ({ channel: channels.random!, topic });
  const day = 24 * 60;

  const form = new FormData();
  form.append("file", new File([(await mockupPng()) as BlobPart], "onboarding-v3.png", { type: "image/png" }));
  const upload = await api("emma", "POST", "/user_uploads", form);

  say("ada", 5 * day, gen("welcome"), "Welcome to **Lighthouse Labs** on Parley! :wave: Channels are for teams, topics keep each conversation tidy.");
  say("ben", 5 * day - 3, gen("welcome"), "Glad to be here. Is there a place for release notes?");
  say("ada", 5 * day - 2, gen("welcome"), "Yes: #**engineering** > **release 2.4** for now.");
  say("farah", 3 * day, gen("offsite in May"), "Proposal for the offsite: **Lisbon, 14–16 May**. Flights are cheapest if we book before the end of the month.");
  say("emma", 3 * day - 20, gen("offsite in May"), "Lisbon :heart: I can look at venues near the river.");
  say("dev", 3 * day - 25, gen("offsite in May"), "Count me in. Could we keep one afternoon free of talks?");

  say("dev", 2 * day, eng("flaky CI"), "The upload tests failed twice today on the ARM runner, both times on a timeout.");
  say("ben", 2 * day - 14, eng("flaky CI"), "I bumped the runner's disk; let's watch it for a day before we retry anything.");
  say("chiara", 30 * 60, eng("database migration"), "Migration 0042 adds an index on `messages (stream_id, topic)`. It takes about 40 s on the staging copy.");
  say("ben", 29 * 60, eng("database migration"), "Fine for a maintenance window. Can we run it on Sunday night?");

  const r1 = say("ben", 6 * 60, eng("release 2.4"), "Release **2.4** is ready for testing :tada:\n\nWhat changed:\n- search highlights matching words\n- uploads resume after a dropped connection\n- the *Inbox* remembers where you were\n\nChangelog draft is in the wiki.");
  const r2 = say("chiara", 6 * 60 - 12, eng("release 2.4"), "Nice! Found one thing while testing resumable uploads; the retry loop never gave up:\n```ts\nasync function upload(file: File, tries = 5) {\n  for (let i = 0; i < tries; i++) {\n    const ok = await sendChunk(file, i);\n    if (ok) return true;\n    await sleep(2 ** i * 250); // back off\n  }\n  return false;\n}\n```\nFixed in the branch `upload-retry`.");
  const r3 = say("dev", 6 * 60 - 20, eng("release 2.4"), `@**${PEOPLE.chiara.name}** good catch. I ran it on the Pi: 25 MB in **41 s** over Wi-Fi, no errors.\n\n> the retry loop never gave up\n\nNow it gives up after five tries, as it should.`);
  const poll = say("ben", 6 * 60 - 31, eng("release 2.4"), "/poll When do we ship 2.4?\nThursday morning\nFriday after lunch\nNext Monday");
  const r4 = say("emma", 6 * 60 - 40, eng("release 2.4"), "Thursday works for design. The release notes need one screenshot of the new search; I'll make it.");
  const mockup = say("emma", 26 * 60, des("onboarding flow"), `New onboarding mock-up, round three. Fewer fields, and invitations right after the team is created.\n\n[onboarding-v3.png](${upload.url})`);
  say("farah", 26 * 60 - 8, des("onboarding flow"), "Much calmer than round two. Could the *Get started* button say what happens next?");
  say("ada", 26 * 60 - 15, des("onboarding flow"), "Agreed. Let's test it with three teams next week.");
  say("emma", 4 * 60, des("icon set"), "The new icons are 20 px on a 2 px grid; exports in SVG only.");

  say("farah", 2 * day + 30, rnd("coffee machine"), "The coffee machine is fixed :coffee: Thank you, whoever called the repair service.");
  say("dev", 2 * day + 20, rnd("coffee machine"), "That was me. It was the water filter, again.");

  say("ben", 9 * 60, { dm: ["ada"] }, "Do you have ten minutes for the 2.4 release plan before the stand-up?");
  say("ada", 9 * 60 - 3, { dm: ["ben"] }, "Sure, I'll call you at 9:30.");
  say("farah", 7 * 60, { dm: ["ada", "emma"] }, "Could you both review the offsite budget by Friday?");

  await sendPlanned();
  await react("ada", r1.id, "tada");
  await react("dev", r1.id, "tada");
  await react("emma", r1.id, "tada");
  await react("dev", r2.id, "+1");
  await react("ada", r2.id, "+1");
  await react("ben", r3.id, "rocket");
  await react("chiara", r4.id, "heart");
  for (const [who, option] of [["dev", 0], ["emma", 0], ["chiara", 1], ["ada", 0]] as const) {
    await api(who, "POST", "/submessage", { message_id: poll.id, msg_type: "widget", content: JSON.stringify({ type: "vote", key: `canned,${option}`, vote: 1 }) });
  }

  // the notices of the channels' creation would only clutter the pictures
  const notices = await api("ada", "GET", `/messages?anchor=newest&num_before=100&num_after=0&narrow=${encodeURIComponent(JSON.stringify([{ operator: "topic", operand: "channel events" }]))}`);
  for (const m of notices.messages) await api("ada", "DELETE", `/messages/${m.id}`);

  // everything Ada has seen so far is read; what follows stays unread
  await api("ada", "POST", "/mark_all_as_read");
  say("chiara", 40, eng("release 2.4"), "Staging is on 2.4 now. Please try it and report anything odd here.");
  say("emma", 25, des("icon set"), "Uploaded the last twelve icons to the shared folder.");
  say("farah", 18, des("icon set"), "Those look crisp. :sparkles:");
  say("dev", 12, gen("offsite in May"), "Venue shortlist: three places, all with a terrace.");
  say("ben", 6, { dm: ["ada"] }, "Call went well. I'll send the plan to everyone this afternoon.");
  say("chiara", 3, eng("database migration"), "Sunday night it is. I'll post the steps here beforehand.");
  await sendPlanned();

  // the thumbnail of the upload is made in the background: wait for it
  for (let i = 0; i < 100; i++) {
    const { message } = await api("ada", "GET", `/messages/${mockup.id}`);
    if (!message.content.includes("image-loading-placeholder") && message.content.includes("<img")) break;
    await Bun.sleep(100);
  }
  await server.stop();

  // times that read like a working week: the database's send times, moved back (the server is stopped)
  const db = new Database(join(dir, "parley.db"));
  const now = Date.now() / 1000;
  const update = db.prepare("UPDATE messages SET date_sent = ? WHERE id = ?");
  for (const s of sent) update.run(now - s.minutesAgo * 60, s.id);
  // people who joined a month ago (presence reads someone who never reported activity as active since they joined)
  db.prepare("UPDATE users SET date_joined = ?").run(now - 30 * 86_400);
  db.close();

  server = await startParley(["serve", "--data-dir", dir, "--port", "0"]);
  // the others are around (presence dots), Farah stepped away
  for (const who of ["ben", "chiara", "dev", "emma"] as const) await api(who, "POST", "/users/me/presence", { status: "active", new_user_input: "true" });
  await api("farah", "POST", "/users/me/presence", { status: "idle", new_user_input: "false" });
  await api("emma", "POST", "/users/me/status", { status_text: "Sketching icons", emoji_name: "art" });
  // what the settings screens show: a pronouns field filled in, an avatar, an alert word
  await api("ada", "POST", "/realm/profile_fields", { name: "Pronouns", hint: "What should people call you?", field_type: 8 });
  const { custom_fields } = await api("ada", "GET", "/realm/profile_fields");
  await api("ada", "PATCH", "/users/me/profile_data", { data: [{ id: custom_fields[0].id, value: "she/her" }] });
  const avatar = new FormData();
  avatar.append("file", new Blob([new Uint8Array(await avatarPng())], { type: "image/png" }), "ada.png");
  await api("ada", "POST", "/users/me/avatar", avatar);
  await api("ada", "POST", "/users/me/alert_words", { alert_words: ["release", "outage"] });
  return channels;
}

/** Saves a screenshot of the page as a palette PNG (a tenth of the size, no visible change). */
async function capture(page: Page, name: string) {
  await page.evaluate(() => document.fonts.ready);
  await Bun.sleep(300);
  const png = await page.screenshot({ animations: "disabled", caret: "hide" });
  const file = join(OUT, `${name}.png`);
  const info = await sharp(png).png({ palette: true, quality: 90, effort: 10, compressionLevel: 9 }).toFile(file);
  log(`${file}: ${info.width}x${info.height}, ${Math.round(info.size / 1024)} KB`);
}

async function newPage(width: number, height: number, dark = false): Promise<Page> {
  const context = await browser!.newContext({ viewport: { width, height }, colorScheme: dark ? "dark" : "light", deviceScaleFactor: 1 });
  // the one-time question about desktop notifications, answered "Not now"
  await context.addInitScript(() => localStorage.setItem("parley.notification-banner", "dismissed"));
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(server!.base + "/");
  await page.fill("#login-email", PEOPLE.ada.email);
  await page.fill("#login-password", PASSWORD);
  await page.click(".login-form button[type=submit]");
  await page.locator(".app-shell").waitFor();
  return page;
}

/** Zulip's hash encoding of a URL component: percent-encoding with "." for "%" (and "." itself encoded). */
const hashComponent = (s: string) => encodeURIComponent(s).replace(/[%().]/g, (c) => ({ "%": ".", "(": ".28", ")": ".29", ".": ".2E" })[c]!);
const topicUrl = (channelId: number, channel: string, topic: string) => `#narrow/channel/${channelId}-${channel}/topic/${hashComponent(topic)}`;

/** Scrolls the message list so that the row with `text` is at its top, under the recipient bar. */
async function scrollTo(page: Page, text: string) {
  const row = page.locator(".message-row", { hasText: text });
  await row.waitFor();
  await row.evaluate((el) => {
    const scroller = el.closest(".message-scroller")!;
    scroller.scrollTop += el.getBoundingClientRect().top - scroller.getBoundingClientRect().top - 44;
  });
}

async function openTopic(page: Page, url: string, last: string) {
  await page.goto(server!.base + "/" + url);
  await page.locator(".message-row", { hasText: last }).waitFor();
}

async function shoot(channels: Record<string, number>) {
  mkdirSync(OUT, { recursive: true });
  browser = await launchChromium(["--font-render-hinting=none"]);
  const release = topicUrl(channels.engineering!, "engineering", "release 2.4");
  const onboarding = topicUrl(channels.design!, "design", "onboarding flow");

  // a channel topic, light: Markdown, a code block, a mention, a quote, reactions, a poll
  let page = await newPage(1280, 800);
  await openTopic(page, release, "Staging is on 2.4");
  await page.locator(".poll-option").first().waitFor();
  await scrollTo(page, "Found one thing");
  await capture(page, "topic-light");

  // the Inbox
  await page.goto(server!.base + "/#inbox");
  await page.locator(".inbox-group").first().waitFor();
  await capture(page, "inbox");

  // recent conversations
  await page.goto(server!.base + "/#recent");
  await page.locator(".overview-scroller a").first().waitFor();
  await capture(page, "recent");

  // search results with highlights
  await page.locator(".search-input, [role=search] input").first().click();
  await page.keyboard.type("retry");
  await page.keyboard.press("Enter");
  await page.locator(".message-row mark, .message-row .highlight").first().waitFor();
  await page.locator(".message-scroller").evaluate((el) => (el.scrollTop = 0));
  await capture(page, "search");

  // the compose box with the people autocomplete (its text then cleared, so no draft stays)
  await openTopic(page, release, "Staging is on 2.4");
  await page.locator(".compose-text").click();
  await page.keyboard.type("Thanks for testing, @ch");
  await page.getByRole("listbox", { name: "People and groups" }).waitFor();
  await capture(page, "compose-autocomplete");
  await page.keyboard.press("Escape");
  await page.fill(".compose-text", "");
  await page.context().close();

  // dark theme: the same topic, and the uploaded image's thumbnail
  page = await newPage(1280, 800, true);
  await openTopic(page, release, "Staging is on 2.4");
  await page.locator(".poll-option").first().waitFor();
  await scrollTo(page, "Release 2.4 is ready");
  await capture(page, "topic-dark");
  await openTopic(page, onboarding, "test it with three teams");
  await page.locator(".message-row img").first().waitFor();
  await page.waitForFunction(() => Array.from(document.querySelectorAll<HTMLImageElement>(".message-row img")).every((i) => i.complete && i.naturalWidth > 0));
  await scrollTo(page, "round three");
  await capture(page, "image-dark");
  await page.context().close();

  // the organization's settings, as the owner: permissions, linkifiers with a preview, the server page
  page = await newPage(1280, 800);
  await api("ada", "POST", "/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://github.com/lighthouse/app/issues/{id}" });
  await api("ada", "POST", "/realm/filters", { pattern: "RFC ?(?P<rfc>[0-9]+)", url_template: "https://www.rfc-editor.org/rfc/rfc{rfc}" });
  await page.goto(server!.base + "/#organization/organization-permissions");
  await page.getByLabel("Who can create public channels").waitFor();
  await capture(page, "settings-org-permissions");
  await page.goto(server!.base + "/#organization/linkifier-settings");
  await page.getByLabel("Pattern").fill("(?P<team>[A-Z]+)-(?P<n>[0-9]+)");
  await page.getByLabel("URL template").fill("https://tracker.lighthouse.example/{team}/{n}");
  await page.getByLabel("Try it on a sample text").fill("Fixed in APP-123, see WEB-9");
  await page.locator(".linkifier-preview a").first().waitFor();
  await capture(page, "settings-linkifiers");
  await page.goto(server!.base + "/#organization/server");
  await page.getByRole("button", { name: "Back up now" }).click();
  await page.locator(".latest-backup", { hasText: "parley-backup-" }).waitFor();
  await capture(page, "settings-server");
  await page.context().close();

  // phone width: the conversation, and the sidebar opened
  page = await newPage(390, 844);
  await openTopic(page, release, "Staging is on 2.4");
  await scrollTo(page, "Now it gives up");
  await capture(page, "phone");
  await page.context().close();

  // the settings overlay: profile, account, notifications (light), preferences (dark)
  page = await newPage(1280, 800);
  for (const [section, name] of [
    ["profile", "settings-profile"],
    ["account-and-privacy", "settings-account"],
    ["notifications", "settings-notifications"],
  ] as const) {
    await page.goto(`${server!.base}/#settings/${section}`);
    await page.locator(".settings-panel .settings-section").waitFor();
    await capture(page, name);
  }
  await page.context().close();
  page = await newPage(1280, 800, true);
  await page.goto(`${server!.base}/#settings/preferences`);
  await page.locator(".settings-panel .settings-section").waitFor();
  await capture(page, "settings-preferences-dark");
  await page.context().close();
}

/** The channel, people, group and bot settings screens (Ada is the owner). */
async function shootManagement(channels: Record<string, number>) {
  await api("ada", "POST", "/user_groups/create", { name: "Designers", description: "Sketches and critiques", members: [accounts.chiara.id, accounts.emma.id] });
  await api("ada", "POST", "/bots", { full_name: "Deploy Bot", short_name: "deploy" });
  const page = await newPage(1280, 800);
  await page.goto(`${server!.base}/#channels/${channels.engineering}/engineering/general`);
  await page.getByLabel("Channel name").waitFor();
  await capture(page, "settings-channel");
  await page.goto(`${server!.base}/#channels/${channels.engineering}/engineering/subscribers`);
  await page.getByRole("list", { name: "Subscribers" }).waitFor();
  await capture(page, "settings-channel-subscribers");
  await page.goto(`${server!.base}/#organization/user-list-admin`);
  await page.locator(".user-row").first().waitFor();
  await capture(page, "settings-users");
  await page.locator(".user-row").getByRole("button", { name: `Profile of ${PEOPLE.chiara.name}` }).click();
  await page.getByRole("dialog", { name: PEOPLE.chiara.name }).waitFor();
  await capture(page, "settings-profile-card");
  await page.keyboard.press("Escape");
  await page.goto(`${server!.base}/#groups/all`);
  await page.getByRole("link", { name: "Designers" }).click();
  await page.getByRole("link", { name: "Members" }).click();
  await page.getByRole("list", { name: "Members" }).waitFor();
  await capture(page, "settings-groups");
  await page.goto(`${server!.base}/#settings/your-bots`);
  await page.locator(".bot-card").first().waitFor();
  await capture(page, "settings-bots");
  await page.context().close();
}

try {
  const channels = await seed();
  await shoot(channels).then(() => shootManagement(channels)).catch(async (e) => {
    const pages = browser?.contexts().flatMap((c) => c.pages()) ?? [];
    if (pages[0]) await pages[0].screenshot({ path: "/tmp/parley-screenshots-failure.png" });
    throw e;
  });
} finally {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
