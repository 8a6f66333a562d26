// `parley import zulip EXPORT.tar.gz`: a Zulip organization export (Zulip Cloud's, `manage.py
// export`'s, or `parley export`'s) into a new organization, through the common import framework.
// Ids are new, their relationships kept: every row is mapped through the id maps built as it goes
// (people, groups, channels, emoji, uploads), in the order Zulip's own importer uses.
import { readdirSync } from "node:fs";

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
import { insertInactiveSubscriptions, setImportedSubscriptionSettings, setRealmSettingsJson, setUserSettingsJson, type ImportedSubscriptionSettings } from "../../store/zulip";
import { systemBot } from "../../actions/system-bots";
import { syncFullMembers } from "../../actions/user-updates";
import { NOTIFICATION_BOT_EMAIL } from "../../actions/messages/notification-bot";
import type { Progress } from "../common/progress";
import { runImport, type ImportResult, type RunOptions } from "../common/run";
import { buildDirOf } from "../common/target";
import { ImportError, type SkipLog } from "../common/problems";
import type { ChannelInfo, ImportMessage, ImportPerson, ImportWriter } from "../common/writer";
import { unpackExport, type ExportFolder } from "./archive";
import { CHANNEL_TOPICS_POLICY, EDIT_HISTORY_POLICY, TOPICS_POLICY, policyName } from "../../domain/zulip-export";
import { fk, flagsOf, push, seconds, table, UnknownFields, type IdMaps, type Row } from "./rows";
import { toMessage, writeEditHistory } from "./messages";
import { importEmoji, importUploads } from "./files";

export interface ZulipImportOptions extends RunOptions {
  archive: string;
}

const ROLES = new Set<number>([ROLE.owner, ROLE.administrator, ROLE.moderator, ROLE.member, ROLE.guest]);
const BATCH = 2000;


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

async function convert(x: ExportFolder, skips: SkipLog, notes: string[], progress: Progress, open: Open) {
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
    if (!ROLES.has(u.role)) skips.skip("roles (imported as members)", `realm.json: zerver_userprofile id ${u.id}`, `unknown role ${JSON.stringify(u.role)}, imported as a member`);
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
