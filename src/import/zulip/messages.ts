// Zulip's messages as the common writer's: placed by their recipient (channel, person or direct-message
// group), with the export's rendered HTML and per-person flags, reactions with custom emoji mapped, and
// edit history with its people and channels mapped.
import type { SkipLog } from "../common/problems";
import type { ChannelInfo, ImportMessage, ImportWriter } from "../common/writer";
import { setImportedEditHistory } from "../../store/zulip";
import { fk, rewriteHtml, rewriteUploads, seconds, type IdMaps, type Row } from "./rows";

/** The edit-history keys Zulip's API shows (prev_rendered_content_version and the like stay behind). */
const EDIT_KEYS = new Set(["user_id", "timestamp", "prev_content", "prev_rendered_content", "prev_topic", "topic", "prev_stream", "stream"]);

export function toMessage(
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
export async function writeEditHistory(w: ImportWriter, done: Row[], maps: IdMaps) {
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
