/**
 * The missed-message email of one conversation, as text and HTML. Pure: the job gathers what it shows.
 */
import { escapeHtml } from "../domain/highlight";
import type { Trigger } from "./decide";

export interface ShownMessage {
  senderName: string;
  avatarUrl: string;
  /** seconds since the epoch */
  sent: number;
  /** Markdown source */
  text: string;
  /** rendered HTML, links made absolute */
  html: string;
}

export interface MissedConversation {
  userName: string;
  realmName: string;
  /** direct: 1:1 (others has one name); group: a group DM; channel */
  kind: "direct" | "group" | "channel";
  others: string[];
  channelName?: string;
  topic?: string;
  triggers: Trigger[];
  mentionedGroupName: string | null;
  /** senders of the missed messages (not of the context) */
  senders: string[];
  messages: ShownMessage[];
  /** missed messages in the conversation (context excluded) */
  count: number;
  /** the organization's and the person's message_content_in_email_notifications */
  showContent: boolean;
  conversationUrl: string;
  settingsUrl: string;
  unsubscribeUrl: string;
}

const time = (secs: number) => new Date(secs * 1000).toISOString().slice(0, 16).replace("T", " ") + " UTC";

function groupName(others: string[]): string {
  if (others.length <= 2) return others.join(" and ");
  if (others.length === 3) return `${others[0]}, ${others[1]}, and ${others[2]}`;
  return `${others.slice(0, 2).join(", ")}, and ${others.length - 2} others`;
}

export function subjectOf(c: MissedConversation): string {
  if (!c.showContent) return `New messages in ${c.realmName}`;
  if (c.kind === "direct") return `DMs with ${c.others[0]}`;
  if (c.kind === "group") return `Group DMs with ${groupName(c.others)}`;
  return `#${c.channelName} > ${c.topic}`;
}

/** What happened, in one sentence. */
function headline(c: MissedConversation): string {
  const who = c.showContent ? c.senders.join(", ") : "Someone";
  const n = c.count === 1 ? "a message" : `${c.count} messages`;
  if (c.kind === "direct") return `${who} sent you ${c.count === 1 ? "a direct message" : `${c.count} direct messages`}.`;
  if (c.kind === "group") return `${who} sent ${n} to a group conversation you are in${c.showContent ? ` (with ${groupName(c.others)})` : ""}.`;
  const where = c.showContent ? ` in #${c.channelName} > ${c.topic}` : "";
  if (c.triggers.includes("mentioned")) return c.mentionedGroupName ? `${who} mentioned @${c.mentionedGroupName}${where}.` : `${who} mentioned you${where}.`;
  if (c.triggers.some((t) => t.endsWith("wildcard_mentioned"))) return `${who} mentioned everyone${where}.`;
  if (c.triggers.includes("followed_topic")) return `${who} sent ${n} to a topic you follow${where}.`;
  return `${who} sent ${n}${where}.`;
}

const why = "You get these emails about messages that arrive while you are away from Parley.";

export function composeMissedEmail(c: MissedConversation): { subject: string; text: string; html: string } {
  const lines = [`Hello ${c.userName},`, "", headline(c), ""];
  if (c.showContent) {
    for (const m of c.messages) lines.push(`${m.senderName} (${time(m.sent)}):`, m.text, "");
  } else {
    lines.push(`The organization or your settings keep message content out of emails. Read it in ${c.realmName}.`, "");
  }
  lines.push(`Open the conversation: ${c.conversationUrl}`, "", "--", why, `Change which emails you get: ${c.settingsUrl}`, `Stop these emails: ${c.unsubscribeUrl}`);
  const e = escapeHtml;
  const messages = c.showContent
    ? c.messages
        .map(
          (m) => `<tr><td style="vertical-align:top;padding:6px 8px 6px 0"><img src="${e(m.avatarUrl)}" alt="" width="32" height="32" style="border-radius:4px"></td>
<td style="padding:6px 0"><strong>${e(m.senderName)}</strong> <span style="color:#777;font-size:12px">${e(time(m.sent))}</span><div>${m.html}</div></td></tr>`,
        )
        .join("\n")
    : `<tr><td><p>The organization or your settings keep message content out of emails. Read it in ${e(c.realmName)}.</p></td></tr>`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#222;max-width:40rem">
<p>Hello ${e(c.userName)},</p>
<p>${e(headline(c))}</p>
<table role="presentation" style="border-collapse:collapse">${messages}</table>
<p><a href="${e(c.conversationUrl)}">Open the conversation</a></p>
<hr><p style="color:#777;font-size:12px">${e(why)} <a href="${e(c.settingsUrl)}">Change which emails you get</a> · <a href="${e(c.unsubscribeUrl)}">Stop these emails</a></p>
</body></html>`;
  return { subject: subjectOf(c), text: lines.join("\n"), html };
}
