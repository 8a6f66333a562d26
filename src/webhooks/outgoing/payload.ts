// What an outgoing-webhook bot's server receives and what its answer means (Zulip's
// zerver/lib/outgoing_webhook.py), as pure functions.

export const INTERFACE = { generic: 1, slack: 2 } as const;

export interface OutgoingContext {
  bot: { email: string; fullName: string };
  token: string;
  trigger: string;
  /** the bot's user id (Slack's service_id) */
  serviceId: number;
  /** the message as Zulip's MessageDict gives it with apply_markdown off (content is Markdown) */
  message: Record<string, unknown>;
  realm: { id: number; host: string };
}

/** The request to make: a JSON body (generic) or a form (Slack's legacy outgoing-webhook format). */
export type OutgoingRequest = { kind: "json"; body: string } | { kind: "form"; body: string } | { kind: "refused"; failure: string };

export function buildRequest(iface: number, c: OutgoingContext): OutgoingRequest {
  const m = c.message;
  if (iface === INTERFACE.slack) {
    if (m.type === "private") return { kind: "refused", failure: "Slack outgoing webhooks don't support direct messages." };
    const form = new URLSearchParams([
      ["token", c.token],
      ["team_id", `T${c.realm.id}`],
      ["team_domain", c.realm.host],
      ["channel_id", `C${m.stream_id}`],
      ["channel_name", String(m.display_recipient)],
      ["thread_ts", String(m.timestamp)],
      ["timestamp", String(m.timestamp)],
      ["user_id", `U${m.sender_id}`],
      ["user_name", String(m.sender_full_name)],
      ["text", String(m.content)],
      ["trigger_word", c.trigger],
      ["service_id", String(c.serviceId)],
    ]);
    return { kind: "form", body: form.toString() };
  }
  return {
    kind: "json",
    body: JSON.stringify({ data: m.content, message: m, bot_email: c.bot.email, bot_full_name: c.bot.fullName, token: c.token, trigger: c.trigger }),
  };
}

/** What to do with a 2xx answer: post `content` as the bot's reply, nothing, or report the answer as wrong. */
export type Reply = { kind: "reply"; content: string } | { kind: "none" } | { kind: "invalid"; error: string };

export function interpretSuccess(iface: number, text: string): Reply {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: "invalid", error: "Invalid JSON in response" };
  }
  // zulip_botserver before 2021 answered "" for "no response required"
  if (json === "") return { kind: "none" };
  if (typeof json !== "object" || json === null || Array.isArray(json)) return { kind: "invalid", error: "Invalid response format" };
  const r = json as Record<string, unknown>;
  let content: unknown;
  if (iface === INTERFACE.slack) content = Object.hasOwn(r, "text") ? r.text : undefined;
  else {
    if (r.response_not_required) return { kind: "none" };
    if (Object.hasOwn(r, "response_string")) content = pyStr(r.response_string);
    else if (Object.hasOwn(r, "content")) content = pyStr(r.content);
  }
  if (content === undefined || content === null) return { kind: "none" };
  if (typeof content !== "string") content = pyStr(content);
  if ((content as string).trim() === "") return { kind: "none" };
  return { kind: "reply", content: content as string };
}

const pyStr = (v: unknown): string => (typeof v === "string" ? v : v === null ? "None" : v === true ? "True" : v === false ? "False" : typeof v === "number" ? String(v) : JSON.stringify(v));

/** Zulip's notify_bot_owner text. */
export function ownerNotice(o: { messageUrl: string; botName: string; failure?: string; status?: number; responseText?: string }): string {
  let text = `[A message](${o.messageUrl}) to your bot @_**${o.botName}** triggered an outgoing webhook.`;
  if (o.failure) text += "\n" + o.failure;
  else if (o.status === 407) text += "\nThe URL configured for the webhook is for a private or disallowed network.";
  else if (o.status) text += `\nThe webhook got a response with status code *${o.status}*.`;
  if (o.responseText) text += `\nThe response contains the following payload:\n\`\`\`\n${pythonBytesRepr(o.responseText)}\n\`\`\``;
  return text;
}

/** Python's repr() of the response's bytes, as Zulip quotes them: b'…'. */
function pythonBytesRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = "";
  for (const byte of new TextEncoder().encode(text)) {
    const c = String.fromCharCode(byte);
    if (c === "\\") out += "\\\\";
    else if (c === quote) out += "\\" + quote;
    else if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (c === "\t") out += "\\t";
    else if (byte < 0x20 || byte >= 0x7f) out += "\\x" + byte.toString(16).padStart(2, "0");
    else out += c;
  }
  return `b${quote}${out}${quote}`;
}
