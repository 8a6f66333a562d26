import { nowSecs, realmOf, type App } from "../app";
import { userSettings } from "../domain/user-settings";
import { badRequest, notFound } from "../errors";
import { deleteDraft, findDraft, insertDrafts, listDrafts, updateDraft, type DraftRow, type NewDraft } from "../store/drafts";
import { listUsersByIds, type UserRow } from "../store/users";
import { accessChannelById } from "./channel-access";

/** Zulip's MAX_DRAFTS_IN_REGISTER_RESPONSE. */
export const MAX_DRAFTS_IN_REGISTER = 1000;

export interface DraftInput {
  type: "" | "stream" | "private";
  to: number[];
  topic: string;
  content: string;
  timestamp?: number | null;
}

export const draftDict = (d: DraftRow) => ({
  id: d.id,
  type: d.type as DraftInput["type"],
  to: JSON.parse(d.to_ids) as number[],
  topic: d.topic,
  content: d.content,
  timestamp: Math.floor(d.last_edit_time),
});

/** Zulip's truncate_content, counting code points. */
function truncate(text: string, max: number, marker: string): string {
  const points = Array.from(text);
  return points.length <= max ? text : points.slice(0, max - Array.from(marker).length).join("") + marker;
}

/** Every draft endpoint refuses when the user turned synchronization off. */
function checkSyncEnabled(me: UserRow): void {
  if (!userSettings(me).enable_drafts_synchronization) throw badRequest("User has disabled synchronizing drafts.");
}

/**
 * Zulip's further_validated_draft_dict: content normalized like a message's, the topic only for
 * channel drafts, the channel checked for access, direct-message recipients checked and shown the way
 * the conversation is named (the others, or oneself alone). `label` names the draft in errors.
 */
async function validateDraft(app: App, me: UserRow, d: DraftInput, label: string): Promise<NewDraft> {
  const limits = app.config.limits;
  const content = d.content.trimEnd().replace(/^\n+/, "");
  if (!content.trim()) throw badRequest(`${label}["content"] cannot be blank`);
  if (content.includes("\0")) throw badRequest("Message must not contain null bytes");
  const timestamp = d.timestamp ?? nowSecs(app);
  if (timestamp < 0) throw badRequest("Timestamp must not be negative.");
  let topic = "";
  let to: number[] = [];
  if (d.type === "stream") {
    topic = truncate(d.topic, limits.max_topic_length, "...");
    if (topic.includes("\0")) throw badRequest("Topic must not contain null bytes");
    if (d.to.length !== 1) throw badRequest("Must specify exactly 1 channel ID for channel messages");
    await accessChannelById(app, me, d.to[0]!);
    to = [d.to[0]!];
  } else if (d.type === "private" && d.to.length) {
    const ids = [...new Set(d.to)].sort((a, b) => a - b);
    const users = new Map((await listUsersByIds(app.db, ids)).filter((u) => u.realm_id === realmOf(app).id).map((u) => [u.id, u]));
    for (const id of ids) {
      const u = users.get(id);
      if (!u) throw badRequest(`Invalid user ID ${id}`);
      if (!u.is_active) throw badRequest(`'${u.email}' is no longer using Zulip.`);
    }
    const others = ids.filter((id) => id !== me.id);
    to = others.length ? others : [me.id];
  }
  return {
    // Like Zulip, a draft with no recipient is unaddressed, whatever type it was given.
    type: to.length ? d.type : "",
    to_ids: JSON.stringify(to),
    topic,
    content: truncate(content, limits.max_message_length, "\n[message truncated]"),
    last_edit_time: Math.round(timestamp * 1e6) / 1e6,
  };
}

/** GET /drafts: the caller's drafts, most recently edited first. */
export async function getDrafts(app: App, me: UserRow) {
  checkSyncEnabled(me);
  return (await listDrafts(app.db, me.id)).map(draftDict);
}

/** The drafts of /register (empty when synchronization is off). */
export async function draftsForRegister(app: App, me: UserRow) {
  if (!userSettings(me).enable_drafts_synchronization) return [];
  return (await listDrafts(app.db, me.id, MAX_DRAFTS_IN_REGISTER)).map(draftDict);
}

/** POST /drafts: all or nothing; one `drafts` add event with every new draft. */
export async function createDrafts(app: App, me: UserRow, drafts: DraftInput[]): Promise<number[]> {
  checkSyncEnabled(me);
  const rows: NewDraft[] = [];
  for (const [i, d] of drafts.entries()) rows.push(await validateDraft(app, me, d, `drafts[${i}]`));
  const ids = await app.db.tx((sql) => insertDrafts(sql, me.id, rows));
  if (ids.length) {
    app.events.publish({ type: "drafts", op: "add", drafts: rows.map((r, i) => draftDict({ ...r, id: ids[i]!, user_id: me.id })) }, [me.id]);
  }
  return ids;
}

/** PATCH /drafts/{draft_id}: replaces the draft. */
export async function editDraft(app: App, me: UserRow, draftId: number, draft: DraftInput): Promise<void> {
  checkSyncEnabled(me);
  if (!(await findDraft(app.db, me.id, draftId))) throw notFound("Draft does not exist");
  const row = await validateDraft(app, me, draft, "draft");
  await app.db.tx(async (sql) => {
    if (!(await findDraft(sql, me.id, draftId))) throw notFound("Draft does not exist");
    await updateDraft(sql, draftId, row);
  });
  app.events.publish({ type: "drafts", op: "update", draft: draftDict({ ...row, id: draftId, user_id: me.id }) }, [me.id]);
}

/** DELETE /drafts/{draft_id}. */
export async function removeDraft(app: App, me: UserRow, draftId: number): Promise<void> {
  checkSyncEnabled(me);
  await app.db.tx(async (sql) => {
    if (!(await findDraft(sql, me.id, draftId))) throw notFound("Draft does not exist");
    await deleteDraft(sql, draftId);
  });
  app.events.publish({ type: "drafts", op: "remove", draft_id: draftId }, [me.id]);
}
