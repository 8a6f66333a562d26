// `parley import zulip EXPORT.tar.gz`: a Zulip organization export (Zulip Cloud's, `manage.py
// export`'s, or `parley export`'s) into a new organization, through the common import framework.
// Ids are new, their relationships kept: every row is mapped through the id maps built as it goes
// (people, groups, channels, emoji, uploads), in the order Zulip's own importer uses.
import { readdirSync } from "node:fs";
import { copyFile } from "node:fs/promises";

import type { Config } from "../../config/schema";
import { realmOf, reloadGroups, reloadRealm } from "../../app";
import { REALM_GROUP_SETTING_DEFAULTS, REALM_PROPERTY_DEFAULTS, ANNOUNCEMENT_SETTINGS } from "../../domain/realm-settings";
import { USER_SETTING_NAMES, USER_SETTING_DEFAULTS } from "../../domain/user-settings";
import { isHexColor } from "../../domain/stream-colors";
import { ROLE } from "../../domain/roles";
import { addMembers, addSubgroups, insertGroup } from "../../store/groups";
import { insertLinkifier } from "../../store/linkifiers";
import { setUserTopic } from "../../store/user-topics";
import { insertMutedUser } from "../../store/muted-users";
import { addAlertWords } from "../../store/alert-words";
import { insertField, setValue } from "../../store/profile-fields";
import { findRealm } from "../../store/realm";
import { CHANNEL_GROUP_SETTING_NAMES, updateStream } from "../../store/streams";
import { updateImportedEmoji, emojiFileName, insertInactiveSubscriptions, setImportedEditHistory, setImportedSubscriptionSettings, setRealmSettingsJson, setUserSettingsJson, type ImportedSubscriptionSettings } from "../../store/zulip";
import { systemBot } from "../../actions/system-bots";
import { syncFullMembers } from "../../actions/user-updates";
import { NOTIFICATION_BOT_EMAIL } from "../../actions/messages/notification-bot";
import { runImport, type ImportResult, type RunOptions } from "../common/run";
import { buildDirOf } from "../common/target";
import { ImportError, type SkipLog } from "../common/problems";
import type { ChannelInfo, ImportMessage, ImportPerson, ImportWriter } from "../common/writer";
import { unpackExport, type ExportFolder } from "./archive";
import { CHANNEL_TOPICS_POLICY, EDIT_HISTORY_POLICY, TOPICS_POLICY, policyName } from "../../domain/zulip-export";
import { fk, flagsOf, rewriteHtml, rewriteUploads, seconds, table, UnknownFields, type IdMaps, type Row } from "./rows";

export interface ZulipImportOptions extends RunOptions {
  archive: string;
}

const ROLES = new Set<number>([ROLE.owner, ROLE.administrator, ROLE.moderator, ROLE.member, ROLE.guest]);
const BATCH = 2000;

/** Appends to a map of lists (in place: a channel's rows can be many). */
function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
const EDIT_KEYS = new Set(["user_id", "timestamp", "prev_content", "prev_rendered_content", "prev_topic", "topic", "prev_stream", "stream"]);

export async function importZulip(config: Config, opts: ZulipImportOptions): Promise<ImportResult> {
  let folder: ExportFolder | null = null;
  try {
    return await runImport(config, opts, async (run) => {
      folder = await unpackExport(opts.archive, `${buildDirOf(config.data_dir)}-zulip-export`);
      await convert(folder, run.skips, run.notes, run.progress, (org, owner) => run.open(org, owner));
    });
  } finally {
    (folder as ExportFolder | null)?.remove();
  }
}

type Open = (org: { name: string; description?: string }, owner: ImportPerson) => Promise<ImportWriter>;

async function convert(x: ExportFolder, skips: SkipLog, notes: string[], progress: ImportRunProgress, open: Open) {
  const data = x.json<Row>("realm.json")!;
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new ImportError(`${x.archive}: realm.json is not an object of tables`);
  const unknown = new UnknownFields();
  const realmRow = table(data, "zerver_realm")[0];
  if (!realmRow) throw new ImportError(`${x.archive}: realm.json: zerver_realm holds no organization`);
  const now = Date.now() / 1000;

  // people: the first active human owner (else administrator, else anyone active) creates the organization
  const people = table(data, "zerver_userprofile").filter((u) => !u.is_mirror_dummy);
  const seenIds = new Set<number>();
  people.forEach((u, i) => {
    if (typeof u.id !== "number") throw new ImportError(`${x.archive}: realm.json: zerver_userprofile item ${i + 1} has no id`);
    if (seenIds.has(u.id)) throw new ImportError(`${x.archive}: realm.json: zerver_userprofile has two people with id ${u.id}`);
    seenIds.add(u.id);
    const email = u.delivery_email || u.email;
    if (typeof email !== "string" || !email) throw new ImportError(`${x.archive}: realm.json: zerver_userprofile id ${u.id} (${u.full_name ?? "no name"}) has no email`);
    unknown.note("zerver_userprofile", u, [...USER_SETTING_NAMES]);
  });
  const humans = people.filter((u) => u.is_active !== false && !u.is_bot);
  const ownerRow = humans.find((u) => u.role === ROLE.owner) ?? humans.find((u) => u.role === ROLE.administrator) ?? humans[0];
  if (!ownerRow) throw new ImportError(`${x.archive}: realm.json: zerver_userprofile has no active person to own the organization`);
  const person = (u: Row): ImportPerson => {
    const role = ROLES.has(u.role) ? u.role : ROLE.member;
    if (!ROLES.has(u.role)) skips.skip("roles", `realm.json: zerver_userprofile id ${u.id}`, `unknown role ${JSON.stringify(u.role)}, imported as a member`);
    return {
      key: String(u.id),
      email: String(u.delivery_email || u.email).trim(),
      fullName: String(u.full_name ?? ""),
      role,
      active: u.is_active !== false,
      bot: Boolean(u.is_bot),
      timezone: typeof u.timezone === "string" ? u.timezone : "",
      dateJoined: seconds(u.date_joined, now),
    };
  };
  const w = await open({ name: String(realmRow.name || "Imported organization"), description: String(realmRow.description ?? "") }, person(ownerRow));
  const app = w.app;
  const realm = realmOf(app);
  const maps: IdMaps = { users: new Map(), streams: new Map(), groups: new Map(), uploads: new Map(), emojiFiles: new Map(), oldRealmId: typeof realmRow.id === "number" ? realmRow.id : null, newRealmId: realm.id };
  maps.users.set(ownerRow.id, w.owner.id);
  // Zulip's system bots (its cross-realm bots, and Parley's Notification Bot when Parley exported)
  // become this organization's own, as Zulip's importer maps them
  const systemBots = new Map<string, Row>();
  for (const b of table(data, "zerver_userprofile_crossrealm")) if (typeof b.email === "string") systemBots.set(b.email.toLowerCase(), b);
  for (const u of people) if (u.is_bot && String(u.email).toLowerCase() === NOTIFICATION_BOT_EMAIL) systemBots.set(NOTIFICATION_BOT_EMAIL, u);
  for (const [email, b] of systemBots) {
    const name = typeof b.full_name === "string" && b.full_name ? b.full_name : email.split("@")[0]!.split("-").map((x) => x[0]!.toUpperCase() + x.slice(1)).join(" ");
    maps.users.set(b.id, (await systemBot(app, email, name)).id);
  }
  const rest = people.filter((u) => u !== ownerRow && !maps.users.has(u.id));
  const ids = await w.addPeople(rest.map(person));
  rest.forEach((u, i) => maps.users.set(u.id, ids[i]!));
  // personal settings Parley has, each of the type Parley keeps
  await app.db.tx(async (sql) => {
    for (const u of people) {
      const settings: Record<string, unknown> = {};
      for (const name of USER_SETTING_NAMES) if (name in u && typeof u[name] === typeof USER_SETTING_DEFAULTS[name]) settings[name] = u[name];
      if (Object.keys(settings).length) await setUserSettingsJson(sql, maps.users.get(u.id)!, JSON.stringify(settings));
    }
  });
  const avatars = x.json<Row[]>("avatars/records.json", false) ?? [];
  const uploadedAvatars = people.filter((u) => u.avatar_source === "U").length;
  if (avatars.length || uploadedAvatars) notes.push(`Left ${Math.max(avatars.length ? new Set(avatars.map((a) => a.user_profile_id)).size : 0, uploadedAvatars)} uploaded avatars behind: Parley shows generated avatars.`);

  // user groups: system groups are Parley's own; named and anonymous ones are made, then filled
  const groups = table(data, "zerver_usergroup");
  const named = new Map(table(data, "zerver_namedusergroup").map((g) => [fk(g, "usergroup_ptr") ?? g.id, g]));
  // older exports keep the name in zerver_usergroup itself
  for (const g of groups) if (typeof g.name === "string" && !named.has(g.id)) named.set(g.id, g);
  await app.db.tx(async (sql) => {
    for (const g of groups) {
      const n = named.get(g.id);
      if (n?.is_system_group) {
        const mine = app.systemGroups.get(n.name);
        if (mine !== undefined) maps.groups.set(g.id, mine);
        else skips.skip("groups", `realm.json: zerver_namedusergroup ${n.name}`, "a system group Parley does not have");
        continue;
      }
      const id = await insertGroup(sql, {
        realmId: realm.id,
        name: n ? String(n.name) : null,
        description: n ? String(n.description ?? "") : "",
        creatorId: n ? (maps.users.get(fk(n, "creator") ?? -1) ?? null) : null,
        dateCreated: n ? seconds(n.date_created, now) : null,
      });
      maps.groups.set(g.id, id);
    }
    const own = (groupId: number | null) => groupId !== null && maps.groups.has(groupId) && !named.get(groupId)?.is_system_group;
    const members = new Map<number, number[]>();
    for (const m of table(data, "zerver_usergroupmembership")) {
      const g = fk(m, "user_group");
      const u = maps.users.get(fk(m, "user_profile") ?? -1);
      if (!own(g) || u === undefined) continue;
      const to = maps.groups.get(g!)!;
      push(members, to, u);
    }
    for (const [g, us] of members) await addMembers(sql, g, [...new Set(us)]);
    const subs = new Map<number, number[]>();
    for (const m of table(data, "zerver_groupgroupmembership")) {
      const sup = fk(m, "supergroup");
      const sub = maps.groups.get(fk(m, "subgroup") ?? -1);
      if (!own(sup) || sub === undefined) continue;
      const to = maps.groups.get(sup!)!;
      push(subs, to, sub);
    }
    for (const [g, ss] of subs) await addSubgroups(sql, g, [...new Set(ss)]);
  });
  await reloadGroups(app);

  // channels with their subscribers; direct-message groups' members come from their subscriptions too
  const recipients = new Map(table(data, "zerver_recipient").map((r) => [r.id as number, { type: r.type as number, typeId: r.type_id as number }]));
  const subscriptions = table(data, "zerver_subscription");
  const byRecipient = new Map<number, Row[]>();
  for (const s of subscriptions) {
    unknown.note("zerver_subscription", s);
    const r = fk(s, "recipient");
    if (r === null) continue;
    push(byRecipient, r, s);
  }
  const streamRows = table(data, "zerver_stream");
  const defaults = new Set(table(data, "zerver_defaultstream").map((d) => fk(d, "stream")));
  const recipientOfStream = new Map<number, number>();
  for (const [id, r] of recipients) if (r.type === 2) recipientOfStream.set(r.typeId, id);
  for (const s of streamRows) {
    unknown.note("zerver_stream", s, [...CHANNEL_GROUP_SETTING_NAMES, "rendered_description", "creator", "first_message_id", "topics_policy", "folder"]);
    const r = fk(s, "recipient");
    if (r !== null) recipientOfStream.set(s.id, r);
  }
  const members = (recipient: number | undefined, active: boolean) =>
    (byRecipient.get(recipient ?? -1) ?? []).filter((s) => (s.active !== false) === active).map((s) => maps.users.get(fk(s, "user_profile") ?? -1)).filter((u): u is number => u !== undefined);
  const infos = await w.addChannels(
    streamRows.map((s) => ({
      key: String(s.id),
      name: String(s.name),
      description: String(s.description ?? ""),
      inviteOnly: Boolean(s.invite_only),
      archived: Boolean(s.deactivated ?? s.is_archived),
      dateCreated: seconds(s.date_created, now),
      members: members(recipientOfStream.get(s.id), true),
      isDefault: defaults.has(s.id),
    })),
  );
  const channels = new Map<number, ChannelInfo>();
  streamRows.forEach((s, i) => {
    channels.set(s.id, infos[i]!);
    maps.streams.set(s.id, infos[i]!.id);
  });
  await app.db.tx(async (sql) => {
    const settings: ImportedSubscriptionSettings[] = [];
    const inactive: { userId: number; streamId: number; color: string }[] = [];
    const tri = (v: unknown) => (v === null || v === undefined ? null : v ? 1 : 0);
    for (const s of streamRows) {
      const info = channels.get(s.id)!;
      const fields: Record<string, unknown> = {
        is_web_public: s.is_web_public ? 1 : 0,
        history_public_to_subscribers: s.history_public_to_subscribers === false ? 0 : 1,
        message_retention_days: typeof s.message_retention_days === "number" ? s.message_retention_days : null,
        creator_id: maps.users.get(fk(s, "creator") ?? -1) ?? null,
      };
      const topicsPolicy = policyName(CHANNEL_TOPICS_POLICY, s.topics_policy);
      if (topicsPolicy) fields.topics_policy = topicsPolicy;
      for (const name of CHANNEL_GROUP_SETTING_NAMES) {
        const g = maps.groups.get(typeof s[name] === "number" ? s[name] : -1);
        if (g !== undefined) fields[name] = g;
      }
      await updateStream(sql, info.id, fields);
      for (const sub of byRecipient.get(recipientOfStream.get(s.id) ?? -1) ?? []) {
        const userId = maps.users.get(fk(sub, "user_profile") ?? -1);
        if (userId === undefined) continue;
        const color = typeof sub.color === "string" && isHexColor(sub.color) ? sub.color : "#c2c2c2";
        if (sub.active === false) inactive.push({ userId, streamId: info.id, color });
        settings.push({
          userId, streamId: info.id, color, isMuted: Boolean(sub.is_muted ?? sub.in_home_view === false), pinToTop: Boolean(sub.pin_to_top),
          desktop: tri(sub.desktop_notifications), audible: tri(sub.audible_notifications), push: tri(sub.push_notifications),
          email: tri(sub.email_notifications), wildcard: tri(sub.wildcard_mentions_notify),
        });
      }
    }
    await insertInactiveSubscriptions(sql, inactive);
    await setImportedSubscriptionSettings(sql, settings);
  });

  // each person's topic settings (muted, followed...), muted people and alert words
  await app.db.tx(async (sql) => {
    for (const t of table(data, "zerver_usertopic")) {
      const userId = maps.users.get(fk(t, "user_profile") ?? -1);
      const streamId = maps.streams.get(fk(t, "stream") ?? -1);
      if (userId === undefined || streamId === undefined || typeof t.visibility_policy !== "number") continue;
      await setUserTopic(sql, { user_id: userId, stream_id: streamId, topic: String(t.topic_name ?? ""), visibility_policy: t.visibility_policy, last_updated: seconds(t.last_updated, now) });
    }
    for (const m of table(data, "zerver_muteduser")) {
      const userId = maps.users.get(fk(m, "user_profile") ?? -1);
      const muted = maps.users.get(fk(m, "muted_user") ?? -1);
      if (userId !== undefined && muted !== undefined) await insertMutedUser(sql, userId, muted, seconds(m.date_muted, now));
    }
    const words = new Map<number, string[]>();
    for (const a of table(data, "zerver_alertword")) {
      const userId = maps.users.get(fk(a, "user_profile") ?? -1);
      if (userId !== undefined && typeof a.word === "string") push(words, userId, a.word);
    }
    for (const [userId, list] of words) await addAlertWords(sql, userId, list);
  });

  // custom emoji (reactions name them by id), linkifiers, profile fields, the organization's settings
  const emojiIds = await importEmoji(x, data, w, skips, maps);
  await app.db.tx(async (sql) => {
    const linkifiers = table(data, "zerver_realmfilter").slice().sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || a.id - b.id);
    for (const l of linkifiers) {
      const template = l.url_template ?? l.url_format_string;
      if (typeof l.pattern !== "string" || typeof template !== "string") {
        skips.skip("linkifiers", `realm.json: zerver_realmfilter id ${l.id}`, "no pattern or URL template");
        continue;
      }
      await insertLinkifier(sql, realm.id, l.pattern, template);
    }
    const fields = new Map<number, { id: number; type: number }>();
    for (const f of table(data, "zerver_customprofilefield").slice().sort((a, b) => (a.order ?? 0) - (b.order ?? 0))) {
      const id = await insertField(sql, {
        realm_id: realm.id, name: String(f.name), hint: String(f.hint ?? ""), field_type: Number(f.field_type),
        field_data: typeof f.field_data === "string" ? f.field_data : f.field_data ? JSON.stringify(f.field_data) : "",
        display_in_profile_summary: f.display_in_profile_summary ? 1 : 0, required: f.required ? 1 : 0, editable_by_user: f.editable_by_user === false ? 0 : 1,
      });
      fields.set(f.id, { id, type: Number(f.field_type) });
    }
    for (const v of table(data, "zerver_customprofilefieldvalue")) {
      const field = fields.get(fk(v, "field") ?? -1);
      const userId = maps.users.get(fk(v, "user_profile") ?? -1);
      if (!field || userId === undefined) {
        skips.skip("profile values", `realm.json: zerver_customprofilefieldvalue id ${v.id}`, "its field or person is not in the export");
        continue;
      }
      let value = String(v.value ?? "");
      if (field.type === 6) {
        // a "people" field holds user ids
        try {
          value = JSON.stringify((JSON.parse(value) as number[]).map((u) => maps.users.get(u)).filter((u) => u !== undefined));
        } catch {
          skips.skip("profile values", `realm.json: zerver_customprofilefieldvalue id ${v.id}`, "a people field whose value is not a list of ids");
          continue;
        }
      }
      await setValue(sql, { user_id: userId, field_id: field.id, value, rendered_value: typeof v.rendered_value === "string" ? v.rendered_value : null });
    }
    const current = JSON.parse((await findRealm(sql))!.settings || "{}") as Record<string, unknown>;
    // Parley's own exports carry the settings Zulip has no field for beside zerver_realm
    const parleyOnly = data.parley_realm_settings && typeof data.parley_realm_settings === "object" ? (data.parley_realm_settings as Row) : {};
    const source: Row = { ...parleyOnly, ...realmRow };
    // Zulip keeps two policies as integers
    const editPolicy = policyName(EDIT_HISTORY_POLICY, realmRow.message_edit_history_visibility_policy);
    if (editPolicy) source.message_edit_history_visibility_policy = editPolicy;
    const topicsPolicy = policyName(TOPICS_POLICY, realmRow.topics_policy);
    if (topicsPolicy) source.topics_policy = topicsPolicy;
    for (const [k, def] of Object.entries(REALM_PROPERTY_DEFAULTS)) {
      const v = source[k];
      if (v !== undefined && (def === null ? v === null || typeof v !== "object" : typeof v === typeof def || v === null)) current[k] = v;
    }
    for (const k of Object.keys(REALM_GROUP_SETTING_DEFAULTS)) {
      const g = maps.groups.get(typeof realmRow[k] === "number" ? realmRow[k] : -1);
      if (g !== undefined) current[k] = g;
    }
    for (const k of ANNOUNCEMENT_SETTINGS) {
      const bare = k.replace(/_id$/, "");
      if (!(bare in realmRow) && !(k in realmRow)) continue;
      const old = fk(realmRow, bare);
      current[k] = old === null ? -1 : (maps.streams.get(old) ?? -1);
    }
    await setRealmSettingsJson(sql, realm.id, JSON.stringify(current), String(realmRow.name || realm.name), String(realmRow.description ?? ""));
  });
  await reloadRealm(app);
  // the waiting period came with the settings: role:fullmembers follows it
  await syncFullMembers(app);

  // uploads: every attachment's file stored anew; messages then point at the new paths
  const attachmentsOf = await importUploads(x, w, skips, maps);

  // messages, file by file, oldest first
  const reactions = new Map<number, Row[]>();
  for (const r of table(data, "zerver_reaction")) {
    const m = fk(r, "message");
    if (m !== null) push(reactions, m, r);
  }
  const files = readdirSync(x.root).filter((f) => /^messages-\d+\.json$/.test(f)).sort();
  progress.start("messages", files.length * 1000);
  const imported: Row[] = [];
  for (const file of files) {
    const chunk = x.json<Row>(file)!;
    const messages = table(chunk, "zerver_message", file).slice().sort((a, b) => a.id - b.id);
    const flags = new Map<number, { userId: number; flags: number }[]>();
    for (const um of table(chunk, "zerver_usermessage", file)) {
      unknown.note("zerver_usermessage", um);
      const userId = maps.users.get(fk(um, "user_profile") ?? -1);
      const m = fk(um, "message");
      if (userId === undefined || m === null) continue;
      push(flags, m, { userId, flags: flagsOf(um) });
    }
    for (let i = 0; i < messages.length; i += BATCH) {
      const batch: ImportMessage[] = [];
      const sources: Row[] = [];
      for (const m of messages.slice(i, i + BATCH)) {
        unknown.note("zerver_message", m, ["rendered_content_version", "sending_client", "type", "is_channel_message", "has_link", "search_tsvector"]);
        const one = toMessage(m, file, maps, channels, recipients, byRecipient, flags, reactions, emojiIds, attachmentsOf, skips);
        if (one) {
          batch.push(one);
          sources.push(m);
        }
      }
      const newIds = await w.addMessages(batch);
      sources.forEach((m, k) => imported.push({ id: newIds[k], source: m }));
      progress.advance(batch.length);
      await writeEditHistory(w, imported.splice(0), maps);
    }
  }
  progress.finish();
  notes.push(...unknown.lines());
}

type ImportRunProgress = { start(label: string, total: number): void; advance(n: number): void; finish(): void };

function toMessage(
  m: Row, file: string, maps: IdMaps, channels: Map<number, ChannelInfo>, recipients: Map<number, { type: number; typeId: number }>,
  byRecipient: Map<number, Row[]>, flags: Map<number, { userId: number; flags: number }[]>, reactions: Map<number, Row[]>,
  emojiIds: Map<number, number>, attachmentsOf: Map<number, number[]>, skips: SkipLog,
): ImportMessage | null {
  const where = `${file}: zerver_message id ${m.id}`;
  const senderId = maps.users.get(fk(m, "sender") ?? -1);
  if (senderId === undefined) {
    skips.skip("messages", where, `its sender ${fk(m, "sender")} is not in zerver_userprofile`);
    return null;
  }
  const recipient = recipients.get(fk(m, "recipient") ?? -1);
  if (!recipient) {
    skips.skip("messages", where, `its recipient ${fk(m, "recipient")} is not in zerver_recipient`);
    return null;
  }
  let place: ImportMessage["place"];
  if (recipient.type === 2) {
    const channel = channels.get(recipient.typeId);
    if (!channel) {
      skips.skip("messages", where, `its channel ${recipient.typeId} is not in zerver_stream`);
      return null;
    }
    place = { kind: "channel", channel, topic: String(m.subject ?? m.topic ?? "") };
  } else if (recipient.type === 1) {
    const other = maps.users.get(recipient.typeId);
    if (other === undefined) {
      skips.skip("messages", where, `its recipient person ${recipient.typeId} is not in zerver_userprofile`);
      return null;
    }
    place = { kind: "direct", userIds: [other] };
  } else {
    const ids = (byRecipient.get(fk(m, "recipient")!) ?? []).map((s) => maps.users.get(fk(s, "user_profile") ?? -1)).filter((u): u is number => u !== undefined);
    if (!ids.length) {
      skips.skip("messages", where, "its direct-message group has no members in zerver_subscription");
      return null;
    }
    place = { kind: "direct", userIds: ids };
  }
  const content = rewriteUploads(String(m.content ?? ""), maps);
  const html = typeof m.rendered_content === "string" ? rewriteHtml(m.rendered_content, maps) : null;
  const userFlags = flags.get(m.id);
  return {
    place,
    senderId,
    content,
    dateSent: seconds(m.date_sent, Date.now() / 1000),
    reactions: (reactions.get(m.id) ?? []).flatMap((r) => {
      const userId = maps.users.get(fk(r, "user_profile") ?? -1);
      if (userId === undefined) return [];
      const type = r.reaction_type === "realm_emoji" || r.reaction_type === "zulip_extra_emoji" ? r.reaction_type : "unicode_emoji";
      let code = String(r.emoji_code);
      if (type === "realm_emoji") {
        const to = emojiIds.get(Number(code));
        if (to === undefined) return [];
        code = String(to);
      }
      return [{ userId, emojiName: String(r.emoji_name), emojiCode: code, reactionType: type }];
    }),
    attachmentIds: attachmentsOf.get(m.id) ?? [],
    rendered: html === null ? undefined : { html, hasImage: Boolean(m.has_image), hasLink: Boolean(m.has_link), hasAttachment: Boolean(m.has_attachment) },
    isMeMessage: html !== null && html.startsWith("<p>/me "),
    // a message with no rows of its own (an export that left them out) gets the writer's: read by all
    userFlags: userFlags?.length ? userFlags : undefined,
  };
}

/** Edit history with its people and channels mapped (Zulip's entries, newest first, as Parley keeps them). */
async function writeEditHistory(w: ImportWriter, done: Row[], maps: IdMaps) {
  const rows: { id: number; history: string; lastEdit: number | null; lastMoved: number | null }[] = [];
  for (const { id, source } of done) {
    let history: Row[] | null = null;
    if (typeof source.edit_history === "string" && source.edit_history) {
      try {
        history = JSON.parse(source.edit_history);
      } catch {
        history = null;
      }
    } else if (Array.isArray(source.edit_history)) history = source.edit_history;
    if (!history?.length && source.last_edit_time == null) continue;
    const mapped = (history ?? []).filter((e) => e && typeof e === "object").map((e) => {
      // the keys Zulip's API shows (prev_rendered_content_version and the like stay behind)
      const out: Row = Object.fromEntries(Object.entries(e).filter(([k]) => EDIT_KEYS.has(k)));
      if (typeof e.user_id === "number") out.user_id = maps.users.get(e.user_id) ?? null;
      for (const k of ["stream", "prev_stream"]) if (typeof e[k] === "number") out[k] = maps.streams.get(e[k]) ?? e[k];
      if (typeof e.prev_rendered_content === "string") out.prev_rendered_content = rewriteHtml(e.prev_rendered_content, maps);
      if (typeof e.prev_content === "string") out.prev_content = rewriteUploads(e.prev_content, maps);
      return out;
    });
    const lastMove = mapped.find((e) => "prev_topic" in e || "prev_stream" in e);
    rows.push({
      id,
      history: JSON.stringify(mapped),
      lastEdit: typeof source.last_edit_time === "number" ? source.last_edit_time : (mapped[0]?.timestamp ?? null),
      lastMoved: typeof source.last_moved_time === "number" ? source.last_moved_time : (lastMove?.timestamp ?? null),
    });
  }
  if (rows.length) await w.app.db.tx((sql) => setImportedEditHistory(sql, rows));
}

async function importEmoji(x: ExportFolder, data: Row, w: ImportWriter, skips: SkipLog, maps: IdMaps): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const records = x.json<Row[]>("emoji/records.json", false) ?? [];
  const byFile = new Map(records.map((r) => [String(r.file_name ?? String(r.path).split("/").pop()), r]));
  for (const e of table(data, "zerver_realmemoji")) {
    const where = `realm.json: zerver_realmemoji ${e.name}`;
    const record = byFile.get(String(e.file_name));
    const path = record ? x.path(`emoji/${record.path}`) : null;
    if (!path || !x.has(`emoji/${record!.path}`)) {
      skips.skip("emoji", where, `its image ${e.file_name} is not in emoji/`);
      continue;
    }
    const ext = String(e.file_name).split(".").pop()!.toLowerCase();
    const made = await w.addRealmEmoji(String(e.name), path, ext);
    out.set(e.id, made.id);
    const file = (await emojiFileName(w.app.db, made.id))!;
    maps.emojiFiles.set(String(e.file_name), file);
    const author = maps.users.get(fk(e, "author") ?? -1) ?? w.owner.id;
    await w.app.db.tx((sql) => updateImportedEmoji(sql, made.id, author, Boolean(e.deactivated)));
  }
  return out;
}

/** Stores each attachment's file; the new attachment ids by old message id. */
async function importUploads(x: ExportFolder, w: ImportWriter, skips: SkipLog, maps: IdMaps): Promise<Map<number, number[]>> {
  const byMessage = new Map<number, number[]>();
  const attachments = table(x.json<Row>("attachment.json", false) ?? {}, "zerver_attachment", "attachment.json");
  const records = x.json<Row[]>("uploads/records.json", false) ?? [];
  const byPath = new Map<string, Row>();
  for (const r of records) {
    if (typeof r.s3_path === "string") byPath.set(r.s3_path, r);
    if (typeof r.path === "string") byPath.set(r.path, r);
  }
  for (const a of attachments) {
    const where = `attachment.json: zerver_attachment id ${a.id} (${a.file_name})`;
    const owner = maps.users.get(fk(a, "owner") ?? -1);
    if (owner === undefined) {
      skips.skip("files", where, "its owner is not in zerver_userprofile");
      continue;
    }
    const rel = `uploads/${byPath.get(String(a.path_id))?.path ?? a.path_id}`;
    if (!x.has(rel)) {
      skips.skip("files", where, `its file ${rel} is not in the export`);
      continue;
    }
    const temp = await w.tempPath();
    await copyFile(x.path(rel), temp);
    const size = (await Bun.file(temp).size) as number;
    const stored = await w.storeFile(owner, temp, String(a.file_name ?? String(a.path_id).split("/").pop()), size);
    maps.uploads.set(String(a.path_id), stored.pathId);
    for (const m of Array.isArray(a.messages) ? a.messages : []) {
      const id = typeof m === "number" ? m : m?.id;
      if (typeof id === "number") push(byMessage, id, stored.attachmentId);
    }
  }
  return byMessage;
}

