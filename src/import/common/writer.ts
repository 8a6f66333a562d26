// The bulk writer every importer converts into: people, channels and their members, direct-message
// groups, messages (rendered by Parley's own Markdown renderer, with per-user flags), reactions,
// uploads and custom emoji, written through the store in large transactions on a fresh database.
import { open, copyFile, mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { closeApp, openApp, realmOf, reloadGroups, type App } from "../../app";
import { createOrganization } from "../../actions/organization";
import { systemGroupsFor } from "../../actions/users";
import { insertChannel } from "../../actions/channel-create";
import { apiEmailFor } from "../../actions/email-visibility";
import { loadDirectory, type Directory } from "../../actions/messages/directory";
import { renderContext } from "../../actions/messages/render";
import { updateRealmSettings } from "../../actions/realm";
import { storeUploadedFile } from "../../actions/uploads";
import { writeAvatarFiles } from "../../actions/avatars";
import { uploadsOf } from "../../uploads/runtime";
import { SNIFF_BYTES, sniffContentType, THUMBNAIL_TYPES } from "../../uploads/content-type";
import { uploadUrl } from "../../uploads/paths";
import { loadRenderer, type RenderContext } from "../../domain/markdown";
import { emailVisibilityOf } from "../../domain/user-format";
import { FLAG } from "../../domain/flags";
import { pickColor } from "../../domain/stream-colors";
import { isValidEmail } from "../../domain/validate";
import { addMembers } from "../../store/groups";
import { insertRecipient } from "../../store/realm";
import { findUserById, insertUser, updateUser, type UserRow } from "../../store/users";
import { addDefaultStream, updateStream } from "../../store/streams";
import { findDirectMessageGroup, insertDirectMessageGroup } from "../../store/messages";
import { linkAttachments } from "../../store/attachments";
import { insertRealmEmoji } from "../../store/realm-emoji";
import { indexPendingMessages } from "../../store/search-index";
import {
  insertImportedMessages,
  insertImportedReactions,
  insertImportedSubscriptions,
  insertImportedUserMessages,
  nextMessageId,
  setFirstMessageIds,
  type ImportedMessage,
} from "../../store/import";
import { generateApiKey } from "../../lib/random";
import { writeZuliprc } from "../../first-run";
import { ImportError } from "./problems";
import type { ImportTarget } from "./target";
import type { Totals } from "./progress";

export interface ImportPerson {
  /** the source's id, for messages and logs */
  key: string;
  email: string;
  fullName: string;
  role: number;
  active: boolean;
  bot: boolean;
  timezone: string;
  dateJoined: number;
}

export interface ImportChannel {
  key: string;
  name: string;
  description: string;
  inviteOnly: boolean;
  archived: boolean;
  dateCreated: number;
  /** Parley user ids */
  members: number[];
  /** new people join it (Slack's #general and #random in Zulip's import) */
  isDefault: boolean;
}

export interface ChannelInfo {
  id: number;
  recipientId: number;
  name: string;
  inviteOnly: boolean;
  subscribers: number[];
}

export type MessagePlace = { kind: "channel"; channel: ChannelInfo; topic: string } | { kind: "direct"; userIds: number[] };

export interface ImportReaction {
  userId: number;
  emojiName: string;
  emojiCode: string;
  reactionType: "unicode_emoji" | "realm_emoji" | "zulip_extra_emoji";
}

export interface ImportMessage {
  place: MessagePlace;
  senderId: number;
  /** Markdown, already converted from the source's markup */
  content: string;
  dateSent: number;
  reactions: ImportReaction[];
  attachmentIds: number[];
  isMeMessage?: boolean;
  /** HTML the source rendered (Zulip's exports): kept instead of rendering `content` again */
  rendered?: { html: string; hasImage: boolean; hasLink: boolean; hasAttachment: boolean };
  /** the per-user rows exactly as the source had them (Zulip's exports), instead of read + mentions for every receiver */
  userFlags?: { userId: number; flags: number }[];
}

export interface StoredFile {
  attachmentId: number;
  pathId: string;
  url: string;
  isImage: boolean;
}

export class ImportWriter {
  readonly totals: Totals = { people: 0, channels: 0, messages: 0, reactions: 0, files: 0 };
  private dir: Directory | null = null;
  private readonly contexts = new Map<number, RenderContext>();
  private readonly personal = new Map<number, number>();
  private readonly groupRecipients = new Map<string, number>();
  private renderer: Awaited<ReturnType<typeof loadRenderer>> | null = null;
  private nextId = 1;

  private constructor(
    readonly app: App,
    readonly target: ImportTarget,
    readonly owner: { id: number; email: string; apiKey: string },
  ) {}

  /**
   * Creates the organization as `parley init` does, with `owner` as its owner, in the build folder,
   * and writes the owner's zuliprc there.
   */
  static async open(target: ImportTarget, org: { name: string; description?: string }, owner: ImportPerson): Promise<ImportWriter> {
    const app = await openApp(target.config, { quiet: true });
    try {
      const created = await createOrganization(app, {
        name: org.name,
        description: org.description ?? "",
        ownerEmail: owner.email,
        ownerFullName: owner.fullName,
        ownerPassword: null,
      });
      await app.db.tx((sql) => updateUser(sql, created.userId, { timezone: owner.timezone, date_joined: owner.dateJoined }));
      writeZuliprc(`${target.buildDir}/zuliprc`, created.email, created.apiKey, app.config.server.external_url);
      const w = new ImportWriter(app, target, { id: created.userId, email: created.email, apiKey: created.apiKey });
      w.totals.people = 1;
      return w;
    } catch (e) {
      await closeApp(app);
      throw e;
    }
  }

  /** People other than the owner, in one transaction, with their system groups and personal recipients. */
  async addPeople(people: ImportPerson[]): Promise<number[]> {
    const realm = realmOf(this.app);
    const seen = new Set<string>([this.owner.email.toLowerCase()]);
    for (const p of people) {
      if (!isValidEmail(p.email)) throw new ImportError(`person ${p.key} (${p.fullName}) has an invalid email '${p.email}'`);
      if (seen.has(p.email.toLowerCase())) throw new ImportError(`person ${p.key} (${p.fullName}) has the email ${p.email} of another person`);
      seen.add(p.email.toLowerCase());
    }
    const ids = await this.app.db.tx(async (sql) => {
      const out: number[] = [];
      const byGroup = new Map<number, number[]>();
      for (const p of people) {
        const id = await insertUser(sql, {
          realmId: realm.id,
          email: p.email,
          fullName: p.fullName.trim() || p.email,
          role: p.role,
          apiKey: generateApiKey(),
          passwordHash: null,
          isBot: p.bot,
          botType: p.bot ? 1 : null,
          dateJoined: p.dateJoined,
          timezone: p.timezone,
        });
        const recipientId = await insertRecipient(sql, 1, id);
        // the organization's default visibility has been copied into the row (as createUser reads it)
        const visibility = emailVisibilityOf((await findUserById(sql, id))!);
        await updateUser(sql, id, { recipient_id: recipientId, email: apiEmailFor(this.app, { id, delivery_email: p.email }, visibility), is_active: p.active ? 1 : 0 });
        for (const name of systemGroupsFor(this.app, p.role, p.dateJoined)) {
          const g = this.app.systemGroups.get(name)!;
          byGroup.set(g, [...(byGroup.get(g) ?? []), id]);
        }
        out.push(id);
      }
      for (const [g, members] of byGroup) await addMembers(sql, g, members);
      return out;
    });
    await reloadGroups(this.app);
    this.dir = null; // the renderer's directory reloads with the new people
    this.totals.people += people.length;
    return ids;
  }

  /** Channels with their members (each subscription a palette colour the person does not use yet). */
  async addChannels(channels: ImportChannel[]): Promise<ChannelInfo[]> {
    const owner = (await findUserById(this.app.db, this.owner.id))!;
    const realm = realmOf(this.app);
    const render = await this.rendererModule();
    const colours = new Map<number, Set<string>>();
    const out = await this.app.db.tx(async (sql) => {
      const infos: ChannelInfo[] = [];
      const subs: { userId: number; streamId: number; color: string }[] = [];
      for (const c of channels) {
        const rendered = c.description ? render.renderMarkdown(c.description, this.bareContext()).html : "";
        const id = await insertChannel(this.app, sql, owner, { name: c.name, description: c.description, renderedDescription: rendered }, {
          inviteOnly: c.inviteOnly,
          isWebPublic: false,
          isDefaultStream: false,
          historyPublicToSubscribers: null,
          messageRetentionDays: "realm_default",
          topicsPolicy: null,
          folderId: null,
          groupSettings: {},
        });
        await updateStream(sql, id, { date_created: c.dateCreated, is_archived: c.archived ? 1 : 0 });
        if (c.isDefault && !c.archived) await addDefaultStream(sql, realm.id, id);
        const members = [...new Set(c.members)];
        for (const userId of members) {
          let used = colours.get(userId);
          if (!used) colours.set(userId, (used = new Set()));
          const color = pickColor(used);
          used.add(color);
          subs.push({ userId, streamId: id, color });
        }
        const row = (await sql.get<{ recipient_id: number }>("SELECT recipient_id FROM streams WHERE id = ?", [id]))!;
        infos.push({ id, recipientId: row.recipient_id, name: c.name, inviteOnly: c.inviteOnly, subscribers: members.sort((a, b) => a - b) });
      }
      await insertImportedSubscriptions(sql, subs);
      return infos;
    });
    await reloadGroups(this.app);
    this.totals.channels += channels.length;
    return out;
  }

  /** Where new channels and new people are announced (Zulip's Slack import uses #general). */
  async setAnnouncementsChannel(channelId: number) {
    const owner = (await findUserById(this.app.db, this.owner.id))!;
    await updateRealmSettings(this.app, owner, { new_stream_announcements_stream_id: channelId, signup_announcements_stream_id: channelId });
  }

  /** A custom emoji from an image file (the file is copied into the organization's emoji folder). */
  async addRealmEmoji(name: string, file: string, extension: string): Promise<{ id: number; name: string }> {
    const realm = realmOf(this.app);
    const { storage } = uploadsOf(this.app);
    const row = await this.app.db.tx((sql) => insertRealmEmoji(sql, { realmId: realm.id, name, authorId: this.owner.id, extension, isAnimated: extension === "gif" }));
    const to = storage.emojiPath(realm.id, row.file_name)!;
    await mkdir(dirname(to), { recursive: true });
    await copyFile(file, to);
    return { id: row.id, name: row.name };
  }

  /** Stores a downloaded file as an upload owned by `ownerId` (moved into the uploads folder). */
  async storeFile(ownerId: number, tempPath: string, fileName: string, size: number): Promise<StoredFile> {
    const owner = (await findUserById(this.app.db, ownerId))!;
    const head = new Uint8Array(Math.min(SNIFF_BYTES, size));
    const fh = await open(tempPath, "r");
    try {
      await fh.read(head, 0, head.length, 0);
    } finally {
      await fh.close();
    }
    const { attachment } = await storeUploadedFile(this.app, owner as UserRow, { tempPath, fileName, size, head });
    this.totals.files++;
    return { attachmentId: attachment.id, pathId: attachment.path_id, url: uploadUrl(attachment.path_id), isImage: attachment.thumbnail_state !== null };
  }

  /**
   * A downloaded image as the person's avatar (both sizes, source "U"), as POST /users/me/avatar
   * stores one. Refuses a file that is not an image Parley can convert.
   */
  async setAvatar(userId: number, file: string): Promise<void> {
    const data = new Uint8Array(await readFile(file));
    const type = await sniffContentType(data.subarray(0, SNIFF_BYTES), "avatar");
    if (!THUMBNAIL_TYPES.has(type)) throw new ImportError(`it is not an image (${type})`);
    const user = (await findUserById(this.app.db, userId))!;
    await writeAvatarFiles(this.app, user, data);
    await this.app.db.tx((sql) => updateUser(sql, userId, { avatar_source: "U", avatar_version: user.avatar_version + 1 }));
  }

  /** A temp path in the uploads folder (same filesystem as the final one) for a download. */
  tempPath(): Promise<string> {
    return uploadsOf(this.app).storage.tempPath();
  }

  /**
   * Messages in the order given (ids follow it, so give them oldest first), each rendered for its
   * sender, with one user_messages row per recipient (read, plus mentions), in one transaction.
   * Returns the new messages' ids, in the order given.
   */
  async addMessages(batch: ImportMessage[]): Promise<number[]> {
    if (!batch.length) return [];
    const realm = realmOf(this.app);
    const render = await this.rendererModule();
    const rows: ImportedMessage[] = [];
    const ums: { userId: number; messageId: number; flags: number }[] = [];
    const reactions: { messageId: number; userId: number; emojiName: string; emojiCode: string; reactionType: string }[] = [];
    const links: { messageId: number; ids: number[]; realmPublic: boolean }[] = [];
    await this.app.db.tx(async (sql) => {
      if (this.nextId === 1) this.nextId = await nextMessageId(sql);
      const firstId = this.nextId;
      let id = firstId;
      for (const m of batch) {
        const r = m.rendered
          ? { html: m.rendered.html, hasAttachment: m.rendered.hasAttachment, hasImage: m.rendered.hasImage, hasLink: m.rendered.hasLink, isMeMessage: m.isMeMessage ?? false, mentionedUserIds: new Set<number>(), wildcard: { stream: false } }
          : render.renderMarkdown(m.content, await this.contextFor(m.senderId));
        let recipientId: number;
        let streamId: number | null = null;
        let dmKey: string | null = null;
        let topic = "";
        let receivers: number[];
        if (m.place.kind === "channel") {
          recipientId = m.place.channel.recipientId;
          streamId = m.place.channel.id;
          topic = m.place.topic;
          receivers = m.place.channel.subscribers;
        } else {
          receivers = [...new Set([m.senderId, ...m.place.userIds])].sort((a, b) => a - b);
          dmKey = receivers.join(",");
          recipientId = await this.directRecipient(sql, m.senderId, receivers, dmKey);
        }
        rows.push({
          senderId: m.senderId,
          recipientId,
          streamId,
          dmKey,
          topic,
          content: m.content,
          renderedContent: r.html,
          dateSent: m.dateSent,
          hasAttachment: r.hasAttachment || m.attachmentIds.length > 0,
          hasImage: r.hasImage,
          hasLink: r.hasLink,
          isMeMessage: r.isMeMessage,
        });
        const wildcard = r.wildcard.stream ? FLAG.stream_wildcard_mentioned : 0;
        if (m.userFlags) for (const x of m.userFlags) ums.push({ userId: x.userId, messageId: id, flags: x.flags });
        else for (const u of receivers) {
          let flags: number = FLAG.read;
          if (r.mentionedUserIds.has(u)) flags |= FLAG.mentioned;
          if (wildcard && u !== m.senderId) flags |= wildcard;
          ums.push({ userId: u, messageId: id, flags });
        }
        if (!m.userFlags && m.place.kind === "channel" && !receivers.includes(m.senderId)) ums.push({ userId: m.senderId, messageId: id, flags: FLAG.read });
        for (const x of m.reactions) reactions.push({ messageId: id, ...x });
        if (m.attachmentIds.length) links.push({ messageId: id, ids: m.attachmentIds, realmPublic: m.place.kind === "channel" && !m.place.channel.inviteOnly });
        id++;
      }
      await insertImportedMessages(sql, realm.id, firstId, rows);
      await insertImportedUserMessages(sql, ums);
      await insertImportedReactions(sql, reactions);
      for (const l of links) await linkAttachments(sql, l.messageId, l.ids, l.realmPublic, false);
      this.nextId = id;
    });
    this.totals.messages += batch.length;
    this.totals.reactions += reactions.length;
    const first = this.nextId - batch.length;
    return batch.map((_, i) => first + i);
  }

  /**
   * The last step: channels' first message ids, the whole full-text index (so the first search is
   * as fast as any), then the database closed and the build moved into the data dir.
   */
  async finish(): Promise<Totals> {
    await this.app.db.tx((sql) => setFirstMessageIds(sql));
    // the index in parts of 20,000 messages: one statement over everything held the whole pass in memory
    while ((await this.app.db.tx((sql) => indexPendingMessages(sql, 20_000))) === 20_000);
    await uploadsOf(this.app).thumbnails.idle();
    // closed before the move: the database's write-ahead log files move with it, whole
    await closeApp(this.app);
    this.target.commit();
    return this.totals;
  }

  /** On failure: the database closed and the build removed, the data dir untouched. */
  async abort(): Promise<void> {
    await closeApp(this.app).catch(() => {});
    this.target.abort();
  }

  private async rendererModule() {
    return (this.renderer ??= await loadRenderer());
  }

  /** A context for text no sender owns (channel descriptions). */
  private bareContext(): RenderContext {
    return {
      usersByName: () => [],
      userById: () => undefined,
      groupByName: () => undefined,
      streamByName: () => undefined,
      realmEmoji: () => undefined,
      realmUrl: (this.app.config.server.external_url || "").replace(/\/+$/, ""),
      uploadsPathPrefix: "/user_uploads/",
    };
  }

  /** The renderer's context for one sender, made once per sender (people and channels are all in by now). */
  private async contextFor(senderId: number): Promise<RenderContext> {
    let ctx = this.contexts.get(senderId);
    if (ctx) return ctx;
    this.dir ??= await loadDirectory(this.app);
    const sender = this.dir.users.get(senderId);
    if (!sender) throw new ImportError(`message sender ${senderId} is not a person of the organization`);
    // "#**" makes the context read the sender's subscriptions, so channel links resolve as for a send
    ctx = await renderContext(this.app, this.dir, sender, "#**");
    this.contexts.set(senderId, ctx);
    return ctx;
  }

  /** 1:1 conversations use the other person's personal recipient; three or more a direct-message group. */
  private async directRecipient(sql: Parameters<Parameters<App["db"]["tx"]>[0]>[0], senderId: number, ids: number[], dmKey: string): Promise<number> {
    if (ids.length <= 2) {
      const other = ids.find((u) => u !== senderId) ?? senderId;
      let r = this.personal.get(other);
      if (r === undefined) {
        r = (await findUserById(sql, other))!.recipient_id!;
        this.personal.set(other, r);
      }
      return r;
    }
    let r = this.groupRecipients.get(dmKey);
    if (r === undefined) {
      r = (await findDirectMessageGroup(sql, dmKey))?.recipient_id ?? (await insertDirectMessageGroup(sql, dmKey));
      this.groupRecipients.set(dmKey, r);
    }
    return r;
  }
}

