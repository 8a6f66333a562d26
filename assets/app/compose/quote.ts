/**
 * Zulip's "quote and reply" text: a silent mention of the sender, a link to the message, and its
 * Markdown in a quote block whose fence is longer than any fence inside it:
 *
 *     @_**Iago|5** [said](https://chat.example.com/#narrow/channel/12-general/topic/lunch/near/42):
 *     ```quote
 *     message content
 *     ```
 */

/** A fence of backticks no line of `content` opens or closes (three, or one more than the longest there). */
export function unusedFence(content: string): string {
  let length = 3;
  for (const m of content.matchAll(/^ {0,3}(`{3,})/gm)) length = Math.max(length, m[1]!.length + 1);
  return "`".repeat(length);
}

export function quoteText(sender: { name: string; id: number }, link: string, source: string): string {
  const fence = unusedFence(source);
  return `@_**${sender.name}|${sender.id}** [said](${link}):\n${fence}quote\n${source}\n${fence}`;
}

/** What the compose box holds after a quote is added: the quote below what was there, and a line to write on. */
export function withQuote(current: string, quote: string): string {
  const before = current.replace(/\s+$/, "");
  return `${before ? `${before}\n\n` : ""}${quote}\n`;
}
