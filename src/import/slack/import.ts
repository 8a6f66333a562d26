// `parley import slack EXPORT.zip`: Slack's "Export data" zip (users.json, channels.json,
// groups.json, dms.json, mpims.json and a folder of day files per conversation) into a new
// organization, following Zulip's Slack import. Day files are read one date at a time across every
// conversation and written in time order, so memory holds one day, never the export.
import { copyFile } from "node:fs/promises";
import { join, posix } from "node:path";
import { ScratchStore } from "../../store/import-scratch";
import type { Config } from "../../config/schema";
import { normalizeContent } from "../../domain/topic";
import { runImport, type ImportResult, type RunOptions } from "../common/run";
import { ImportError } from "../common/problems";
import { ZipArchive } from "../common/zip";
import type { Downloader } from "../common/download";
import type { ChannelInfo, ImportMessage, ImportWriter } from "../common/writer";
import { BotEmails, pickOwner, slackEmails, slackFullName, slackPerson, type SlackUser } from "./people";
import { importAvatars, slackAvatarUrl, type AvatarJob } from "./avatars";
import { integrationBots, isIntegrationBotMessage } from "./bots";
import { convertMessage, type Conversation, type ConvertState, type FileLinker, type SlackFile, type SlackMessage } from "./messages";

export interface SlackImportOptions extends RunOptions {
  zip: string;
  /** a Slack token: files are downloaded with it (Authorization: Bearer) */
  token?: string;
  /** the organization's name (default: the configured organization name) */
  orgName?: string;
  /** hosts whose files are Slack's own, downloaded with the token (Zulip: files.slack.com) */
  fileHosts?: string[];
  /** tests: download from a file host on loopback */
  allowPrivateDownloads?: boolean;
  /** Slack's Web API, asked for the custom emoji with the token (tests: a fake one) */
  apiBase?: string;
  /** hosts custom emoji images are taken from (Zulip: emoji.slack-edge.com) */
  emojiHosts?: string[];
}

interface SlackChannel {
  id: string;
  name: string;
  created?: number;
  is_archived?: boolean;
  members?: string[];
  purpose?: { value?: string };
}

interface SlackDm {
  id: string;
  name?: string;
  members?: string[];
}

const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.json$/;
const BATCH = 5000;

/**
 * A full collection after each written batch. What the import keeps between batches is small (the
 * people, channels and thread topics), but a batch's garbage (day files' JSON, rendered HTML, rows)
 * survives the young collections while it is being written, and JavaScriptCore let that old garbage
 * pile up to ~100 MiB of heap before one full collection: peak RSS grew with the export (144 MiB at
 * 10,000 messages, 249 MiB at 100,000). A full collection of the ~25 MiB that stays costs a few ms.
 */
const settle = () => Bun.gc(true);

export async function importSlack(config: Config, opts: SlackImportOptions): Promise<ImportResult> {
  const zip = await ZipArchive.open(opts.zip);
  try {
    return await runImport(config, opts, async (run) => {
      const prefix = exportRoot(zip);
      const users = await listFile<SlackUser>(zip, prefix, "users.json", true);
      const channels = await listFile<SlackChannel>(zip, prefix, "channels.json", true);
      const groups = await listFile<SlackChannel>(zip, prefix, "groups.json", false);
      const dms = await listFile<SlackDm>(zip, prefix, "dms.json", false);
      const mpims = await listFile<SlackChannel>(zip, prefix, "mpims.json", false);
      for (const [file, list] of [["users.json", users], ["channels.json", channels], ["groups.json", groups], ["dms.json", dms], ["mpims.json", mpims]] as const) {
        list.forEach((x, i) => {
          if (!x || typeof x !== "object" || typeof (x as { id?: unknown }).id !== "string") throw new ImportError(`${opts.zip}: ${file}: item ${i + 1} has no id`);
        });
      }

      // people: the owner first (the organization is created with them), then everyone else
      const domain = new URL(config.server.external_url || "http://localhost").hostname || "localhost";
      const botEmails = new BotEmails(domain);
      const emails = slackEmails(users, domain, botEmails);
      const owner = pickOwner(users);
      if (!owner) throw new ImportError(`${opts.zip}: users.json names no active person with an email to own the organization`);
      const now = Date.now() / 1000;
      const personOf = new Map<string, number>();
      // Zulip merges Slack accounts that share an email into one person
      const accounts = new Map<string, { user: SlackUser; email: string; keys: string[] }>();
      for (const u of users) {
        const email = emails.get(u.id);
        if (!email) {
          run.skips.skip("people", `users.json: ${u.id} (${slackFullName(u)})`, "no email address in the export");
          continue;
        }
        const known = accounts.get(email.toLowerCase());
        if (known) known.keys.push(u.id);
        else accounts.set(email.toLowerCase(), { user: u, email, keys: [u.id] });
      }
      const ownerAccount = accounts.get(emails.get(owner.id)!.toLowerCase())!;
      const others = [...accounts.values()].filter((a) => a !== ownerAccount);
      const writer = await run.open({ name: opts.orgName ?? config.organization.name }, slackPerson(ownerAccount.user, ownerAccount.email, now));
      for (const k of ownerAccount.keys) personOf.set(k, writer.owner.id);
      const ids = await writer.addPeople(others.map((a) => slackPerson(a.user, a.email, now)));
      ids.forEach((id, i) => others[i]!.keys.forEach((k) => personOf.set(k, id)));
      const avatarJobs: AvatarJob[] = [];
      [ownerAccount, ...others].forEach((a, i) => {
        const url = slackAvatarUrl(a.user);
        if (url) avatarJobs.push({ userId: i === 0 ? writer.owner.id : ids[i - 1]!, url, where: `users.json: ${a.user.id} (${slackFullName(a.user)})` });
      });

      // channels (public, then private) with their members; conversations by folder name
      const folders = new Map<string, Conversation>();
      const channelNames = new Map<string, string>();
      const toChannel = (c: SlackChannel, inviteOnly: boolean, file: string) => ({
        key: c.id,
        name: c.name,
        description: c.purpose?.value ?? "",
        inviteOnly,
        archived: Boolean(c.is_archived),
        dateCreated: typeof c.created === "number" ? c.created : now,
        isDefault: !inviteOnly && ["general", "random"].includes(c.name),
        members: members(c.members, `${file}: ${c.name}`, personOf, run.skips),
      });
      const allChannels = [...channels.map((c) => toChannel(c, false, "channels.json")), ...groups.map((c) => toChannel(c, true, "groups.json"))];
      const infos = await writer.addChannels(allChannels);
      infos.forEach((info, i) => {
        const slack = i < channels.length ? channels[i]! : groups[i - channels.length]!;
        folders.set(slack.name, { kind: "channel", channel: info });
        channelNames.set(slack.id, slack.name);
      });
      const general = infos.find((c) => c.name === "general" && !c.inviteOnly);
      if (general) await writer.setAnnouncementsChannel(general.id);
      for (const g of mpims) folders.set(g.name, { kind: "direct", userIds: members(g.members, `mpims.json: ${g.name}`, personOf, run.skips) });
      for (const d of dms) folders.set(d.id, { kind: "direct", userIds: members(d.members, `dms.json: ${d.id}`, personOf, run.skips) });

      // day files by date, across conversations
      const days = new Map<string, { folder: string; entry: string }[]>();
      for (const name of zip.names()) {
        if (!name.startsWith(prefix)) continue;
        const parts = name.slice(prefix.length).split("/");
        if (parts.length !== 2) continue;
        const m = DAY_FILE.exec(parts[1]!);
        if (!m) continue;
        if (!folders.has(parts[0]!)) {
          run.skips.skip("day files", name, `the folder ${parts[0]} is not a conversation in channels.json, groups.json, mpims.json or dms.json`);
          continue;
        }
        const list = days.get(m[1]!) ?? [];
        list.push({ folder: parts[0]!, entry: name });
        days.set(m[1]!, list);
      }

      const apiBase = (opts.apiBase ?? "https://slack.com/api").replace(/\/+$/, "");
      const downloader = opts.token
        ? run.downloader({ token: opts.token, tokenHosts: [...(opts.fileHosts ?? ["files.slack.com"]), new URL(apiBase).hostname], allowPrivate: opts.allowPrivateDownloads })
        : null;
      // avatars are public pictures: fetched without a token too (the token goes to Slack's file hosts only)
      const pictures = downloader ?? run.downloader({ allowPrivate: opts.allowPrivateDownloads });
      run.progress.start("avatars", avatarJobs.length);
      let avatars = await importAvatars(writer, pictures, avatarJobs, run.skips.skip.bind(run.skips), () => run.progress.advance(1));
      run.progress.finish();
      const realmEmoji = downloader ? await importCustomEmoji(writer, downloader, apiBase, opts.emojiHosts ?? ["emoji.slack-edge.com"], run.skips) : new Map<string, number>();
      let leftBehind = 0;
      const files = fileLinker(writer, downloader, opts.fileHosts ?? ["files.slack.com"], run.skips, () => leftBehind++);
      const scratch = new ScratchStore(join(run.target.buildDir, "slack-threads.scratch"));
      const counts = scratch.map("counter");
      const state: ConvertState = {
        threads: scratch.map("threads"),
        parents: scratch.map("parents"),
        counter: {
          get: (k) => {
            const n = counts.get(k);
            return n === undefined ? undefined : Number(n);
          },
          set: (k, n) => counts.set(k, String(n)),
        },
      };
      const lookups = {
        userName(id: string, short: string | undefined) {
          const u = usersById.get(id);
          if (!u || (short !== undefined && u.name !== short) || !personOf.has(id)) return undefined;
          return slackFullName(u);
        },
        channelName: (id: string) => channelNames.get(id),
      };
      const usersById = new Map(users.map((u) => [u.id, u]));
      const bots = integrationBots(writer, downloader && { downloader, base: apiBase }, (id) => personOf.has(id), botEmails, now);
      const ctx = {
        lookups,
        personOf: (id: string) => personOf.get(id) ?? bots.ids.get(id),
        realmEmoji: (name: string) => realmEmoji.get(name),
        files,
        skip: (kind: string, where: string, why: string) => run.skips.skip(kind, where, why),
        maxTopicLength: config.limits.max_topic_length,
      };

      try {
        const dates = [...days.keys()].sort();
        run.progress.start("days of messages", dates.length);
        // several days go into one transaction: fewer, larger commits
        let batch: ImportMessage[] = [];
        for (const date of dates) {
          const tagged: { m: SlackMessage; where: Conversation; file: string }[] = [];
          for (const { folder, entry } of days.get(date)!) {
            const list = await zip.json<unknown>(entry);
            if (!Array.isArray(list)) {
              run.skips.skip("day files", entry, "it is not a list of messages");
              continue;
            }
            for (const m of list as SlackMessage[]) if (m && typeof m === "object") tagged.push({ m, where: folders.get(folder)!, file: entry });
          }
          tagged.sort((a, b) => Number.parseFloat(a.m.ts ?? "0") - Number.parseFloat(b.m.ts ?? "0"));
          if (tagged.some((t) => isIntegrationBotMessage(t.m) && !personOf.has(t.m.bot_id!) && !bots.ids.has(t.m.bot_id!))) {
            // new bots must exist before their messages: write what is waiting first
            await writer.addMessages(batch);
            batch = [];
            avatars += await importAvatars(writer, pictures, await bots.add(tagged.map((t) => t.m)), run.skips.skip.bind(run.skips));
          }
          for (const t of tagged) {
            const converted = await convertMessage(t.m, t.where, t.file, ctx, state);
            if (!converted) continue;
            const n = normalizeContent(converted.content, config.limits.max_message_length);
            if ("error" in n) {
              run.skips.skip("messages", `${t.file}: message ${t.m.ts}`, n.error);
              continue;
            }
            converted.content = n.content;
            batch.push(converted);
            if (batch.length >= BATCH) {
              await writer.addMessages(batch);
              batch = [];
              settle();
            }
          }
          run.progress.advance(1);
        }
        await writer.addMessages(batch);
      } finally {
        // removed before the build moves into place
        scratch.dispose();
      }
      run.progress.finish();
      if (avatars) run.notes.push(`${avatars.toLocaleString("en-US")} people and bots have their Slack avatar.`);
      if (leftBehind) {
        run.notes.push(
          `${leftBehind.toLocaleString("en-US")} files were left on Slack: their messages link to Slack's copies. Run the import again with --token to bring them in.`,
        );
      }
    });
  } finally {
    zip.close();
  }
}

/** The folder holding users.json (Slack's zip has none; a re-zipped export may have one). */
function exportRoot(zip: ZipArchive): string {
  const candidates = zip.names().filter((n) => n === "users.json" || n.endsWith("/users.json"));
  if (!candidates.length) throw new ImportError(`${zip.file}: users.json is missing; is this a Slack export?`);
  const shortest = candidates.sort((a, b) => a.length - b.length)[0]!;
  const dir = posix.dirname(shortest);
  return dir === "." ? "" : `${dir}/`;
}

async function listFile<T>(zip: ZipArchive, prefix: string, name: string, required: boolean): Promise<T[]> {
  if (!zip.has(prefix + name)) {
    if (required) throw new ImportError(`${zip.file}: ${name} is missing; is this a Slack export?`);
    return [];
  }
  const value = await zip.json<unknown>(prefix + name);
  if (!Array.isArray(value)) throw new ImportError(`${zip.file}: ${name} is not a list`);
  return value as T[];
}

function members(list: string[] | undefined, where: string, personOf: Map<string, number>, skips: { skip(k: string, w: string, y: string): void }): number[] {
  const out: number[] = [];
  for (const id of list ?? []) {
    const p = personOf.get(id);
    if (p === undefined) skips.skip("members", `${where}: member ${id}`, "not in users.json");
    else out.push(p);
  }
  return [...new Set(out)];
}

/**
 * Custom emoji: Slack's export leaves them out, so (like Zulip's import) they are listed with the
 * token by Slack's emoji.list and each image on Slack's emoji host downloaded; aliases and images
 * elsewhere are left out, as in Zulip.
 */
async function importCustomEmoji(writer: ImportWriter, downloader: Downloader, apiBase: string, hosts: string[], skips: { skip(k: string, w: string, y: string): void }): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  let list: { ok?: boolean; error?: string; emoji?: Record<string, string> };
  try {
    const got = await downloader.fetch(`${apiBase}/emoji.list`);
    list = JSON.parse(await Bun.file(got.path).text());
  } catch (e) {
    skips.skip("custom emoji", "emoji.list", `Slack's emoji list could not be read (${(e as Error).message})`);
    return out;
  }
  if (!list.ok || !list.emoji || typeof list.emoji !== "object") {
    skips.skip("custom emoji", "emoji.list", `Slack answered ${list.error ?? "without a list"}`);
    return out;
  }
  for (const [name, url] of Object.entries(list.emoji)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      continue; // "alias:other_name"
    }
    const extension = /\.(png|gif|jpe?g|webp)$/i.exec(parsed.pathname)?.[1]?.toLowerCase();
    if (!hosts.includes(parsed.hostname) || !extension || !/^[a-z0-9_-]+$/.test(name)) continue;
    try {
      const got = await downloader.fetch(url);
      out.set(name, (await writer.addRealmEmoji(name, got.path, extension === "jpeg" ? "jpg" : extension)).id);
    } catch (e) {
      skips.skip("custom emoji", `emoji.list: :${name}:`, `download failed (${(e as Error).message})`);
    }
  }
  return out;
}

/**
 * Files on Slack's own hosts: downloaded with the token and stored as uploads (the message links
 * the upload), or, without a token or when the download fails, linked at Slack. Other links (Google
 * Drive and the like) stay links, as in Zulip.
 */
function fileLinker(writer: ImportWriter, downloader: Downloader | null, hosts: string[], skips: { skip(k: string, w: string, y: string): void }, leftBehind: () => void): FileLinker {
  return {
    async link(f: SlackFile, where: string, senderId: number) {
      const title = f.title ?? f.name ?? "file";
      let host = "";
      try {
        host = new URL(f.url_private!).hostname;
      } catch {
        skips.skip("files", `${where}: file ${f.id ?? title}`, `its address '${f.url_private}' is not a URL`);
        return null;
      }
      if (!hosts.includes(host)) return { markdown: `[${title}](${f.url_private})` };
      if (!downloader) {
        leftBehind();
        return { markdown: `[${title}](${f.url_private})` };
      }
      try {
        const got = await downloader.fetch(f.url_private!);
        const temp = await writer.tempPath();
        await copyFile(got.path, temp);
        const stored = await writer.storeFile(senderId, temp, f.name ?? title, got.size);
        return { markdown: `[${title}](${stored.url})`, attachmentId: stored.attachmentId };
      } catch (e) {
        skips.skip("files", `${where}: file ${f.id ?? title}`, `download failed (${(e as Error).message}); the message links Slack's copy`);
        return { markdown: `[${title}](${f.url_private})` };
      }
    },
  };
}

export type { ChannelInfo };
