// One Slack message to an ImportMessage, by Zulip's slack.py: who sent it, where it goes (a
// channel topic, or a direct conversation), its markup converted, its files linked and its reactions.
import type { ChannelInfo, ImportMessage, ImportReaction } from "../common/writer";
import { convertSlackMarkup, threadTopic, type MarkupLookups } from "./markup";
import { zulipEmojiOf } from "./emoji";
import type { StringMap } from "../../store/import-scratch";
import { renderBlocksAndAttachments } from "../../webhooks/slack-incoming";
import { Wild } from "../../webhooks/wild";

export interface SlackFile {
  id?: string;
  name?: string;
  title?: string;
  mimetype?: string;
  url_private?: string;
  mode?: string;
  file_access?: string;
  size?: number;
}

export interface SlackMessage {
  type?: string;
  subtype?: string;
  ts?: string;
  user?: string;
  bot_id?: string;
  username?: string;
  bot_profile?: { name?: string };
  text?: string;
  thread_ts?: string;
  parent_user_id?: string;
  root?: { user?: string; bot_id?: string };
  reactions?: { name: string; users?: string[] }[];
  files?: SlackFile[];
  file?: SlackFile & { user?: string };
  comment?: { user?: string };
  mimetype?: string;
  /** legacy attachments (title, title_link, pretext, text, fields, image_url, footer, ts) */
  attachments?: unknown[];
  /** Block Kit blocks (a person's own messages carry a rich_text block repeating `text`) */
  blocks?: unknown[];
  edited?: { user?: string; ts?: string };
}

/** Where a day file's messages go. */
export type Conversation = { kind: "channel"; channel: ChannelInfo } | { kind: "direct"; userIds: number[] };

/** Subtypes Zulip's import leaves out: pins and join/leave/rename notices. */
export const SKIPPED_SUBTYPES = new Set(["pinned_item", "unpinned_item", "channel_join", "channel_leave", "channel_name"]);

/** Zulip's default topic for a Slack channel's messages outside threads. */
export const SLACK_DEFAULT_TOPIC = "imported from Slack";

/** Zulip's get_message_sending_user: the user, else the shared file's owner, else the bot. */
export function sendingUser(m: SlackMessage): string | undefined {
  return m.user ?? m.file?.user ?? m.bot_id ?? undefined;
}

/** The file links of a message, as Markdown, made by `link` (which decides download or original). */
export interface FileLinker {
  link(file: SlackFile, where: string, senderId: number): Promise<{ markdown: string; attachmentId?: number } | null>;
}

/** What threads need until the export's end: on disk (store/import-scratch), as they grow with it. */
export interface ConvertState {
  /** thread key (thread_ts and parent) → topic */
  threads: StringMap;
  /** truncated topic → times used, for " (n)" */
  counter: { get(k: string): number | undefined; set(k: string, n: number): unknown };
  /** thread_ts → parent's sender, for replies that do not name it */
  parents: StringMap;
}

export interface ConvertContext {
  lookups: MarkupLookups;
  personOf(slackId: string): number | undefined;
  realmEmoji(name: string): number | undefined;
  files: FileLinker;
  skip(kind: string, where: string, why: string): void;
  maxTopicLength: number;
}

/**
 * Zulip's build_reactions: Slack names a skin tone after the emoji ("clap::skin-tone-2"); Zulip has
 * none, so each emoji's reactions merge under its base name, with everyone who used any tone.
 */
function mergeSkinTones(list: { name?: unknown; users?: unknown }[]): { name: string; users: string[] }[] {
  const merged = new Map<string, Set<string>>();
  for (const r of list) {
    if (!r || typeof r.name !== "string") continue;
    const base = r.name.split("::")[0]!;
    let users = merged.get(base);
    if (!users) merged.set(base, (users = new Set()));
    for (const u of Array.isArray(r.users) ? r.users : []) if (typeof u === "string") users.add(u);
  }
  return [...merged].map(([name, users]) => ({ name, users: [...users] }));
}

/** The parent's sender of a thread message (Zulip's get_parent_user_id_from_thread_message). */
function threadParent(m: SlackMessage, state: ConvertState): string | undefined {
  if (m.subtype === "thread_broadcast") return m.root?.user ?? m.root?.bot_id;
  if (m.thread_ts === m.ts) {
    const who = m.user ?? m.bot_id;
    if (who) state.parents.set(m.thread_ts!, who);
    return who;
  }
  return m.parent_user_id ?? state.parents.get(m.thread_ts!) ?? m.bot_id;
}

/**
 * Converts one message, or returns null when it is left out (Zulip's silent skips, or a logged one:
 * an unknown sender, an empty message).
 */
export async function convertMessage(m: SlackMessage, where: Conversation, file: string, ctx: ConvertContext, state: ConvertState): Promise<ImportMessage | null> {
  const slackSender = sendingUser(m);
  if (!slackSender || slackSender === "U00") return null;
  if (m.subtype && SKIPPED_SUBTYPES.has(m.subtype)) return null;
  if (m.mimetype === "application/vnd.slack-docs") return null;
  const item = `${file}: message ${m.ts ?? "(no ts)"}`;
  const dateSent = Number.parseFloat(m.ts ?? "");
  if (!Number.isFinite(dateSent)) {
    ctx.skip("messages", item, "it has no valid time (ts)");
    return null;
  }
  // Zulip's sender of a file_comment is the same as for any message (the file's owner when the
  // message names no user); the comment's author only decides whose file it is
  const senderId = ctx.personOf(slackSender);
  if (senderId === undefined) {
    ctx.skip("messages", item, `its sender ${slackSender} is not in users.json`);
    return null;
  }
  // Zulip: blocks and legacy attachments, when they show anything, stand in for the text (which
  // Slack fills with a summary of them); an edit leaves no history, the text is the last version
  let text = typeof m.text === "string" ? m.text : "";
  if (m.blocks || m.attachments) {
    try {
      const formatted = renderBlocksAndAttachments(new Wild(m, "message"));
      if (formatted !== "") text = formatted;
    } catch (e) {
      ctx.skip("attachments", item, `its blocks or attachments cannot be read (${(e as Error).message}); its text is kept`);
    }
  }
  let { content } = convertSlackMarkup(text, ctx.lookups);
  if (m.subtype === "bot_add" || m.subtype === "sh_room_created" || m.subtype === "me_message") content = `/me ${content}`;

  const files = m.subtype === "file_share" && m.file ? [m.file] : (m.files ?? []);
  const links: string[] = [];
  const attachmentIds: number[] = [];
  for (const f of files) {
    if (f.mode === "tombstone" || f.mode === "hidden_by_limit") continue;
    if (f.file_access === "access_denied" || f.file_access === "file_not_found") continue;
    if (!f.url_private) {
      ctx.skip("files", `${item}: file ${f.id ?? f.name ?? f.title ?? "(no id)"}`, "the export gives no address for it (no url_private)");
      continue;
    }
    const linked = await ctx.files.link(f, item, senderId);
    if (!linked) continue;
    links.push(linked.markdown);
    if (linked.attachmentId !== undefined) attachmentIds.push(linked.attachmentId);
  }
  content = [content, ...links].filter((p) => p !== "").join("\n");
  if (!content.trim()) {
    ctx.skip("messages", item, "it has no text and no file left to link");
    return null;
  }

  const reactions: ImportReaction[] = [];
  const seen = new Set<string>();
  for (const r of mergeSkinTones(m.reactions ?? [])) {
    const unicode = zulipEmojiOf(r.name);
    const realm = unicode ? undefined : ctx.realmEmoji(r.name);
    if (!unicode && realm === undefined) {
      ctx.skip("reactions", `${item}: reaction :${r.name}:`, "Zulip has no such emoji");
      continue;
    }
    for (const u of r.users) {
      const userId = ctx.personOf(u);
      if (userId === undefined) continue; // Zulip: deleted users' reactions are left out
      const emoji = unicode
        ? { emojiName: unicode.name, emojiCode: unicode.code, reactionType: "unicode_emoji" as const }
        : { emojiName: r.name, emojiCode: String(realm), reactionType: "realm_emoji" as const };
      const key = `${userId}:${emoji.reactionType}:${emoji.emojiCode}`;
      if (seen.has(key)) continue;
      seen.add(key);
      reactions.push({ userId, ...emoji });
    }
  }

  if (where.kind === "direct") {
    return { place: { kind: "direct", userIds: where.userIds }, senderId, content, dateSent, reactions, attachmentIds };
  }
  let topic = SLACK_DEFAULT_TOPIC;
  if (m.thread_ts) {
    const key = `${m.thread_ts}-${threadParent(m, state) ?? ""}`;
    let t = state.threads.get(key);
    if (t === undefined) {
      t = threadTopic(content, Number.parseFloat(m.thread_ts), state.counter, ctx.maxTopicLength);
      state.threads.set(key, t);
    }
    topic = t;
  }
  return { place: { kind: "channel", channel: where.channel, topic }, senderId, content, dateSent, reactions, attachmentIds };
}
