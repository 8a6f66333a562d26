// Slack reaction names to Zulip's emoji (Zulip's slack.py goes through iamcal's names, which Slack
// uses, to a code point and then to Zulip's name for it). Most names are also Zulip names or
// aliases for the same code; iamcal-emoji.json (made by build/slack-emoji-names.ts) lists the
// others with their code: "smile" is iamcal's 1f604, Zulip's big_smile, not Zulip's smile (1f642).
import { codeToName, emojiNameToCode } from "../../domain/emoji";
import iamcalText from "./iamcal-emoji.json" with { type: "text" };

let iamcal: Record<string, string> | null = null;

/**
 * The Zulip emoji of a Slack reaction name (skin tones dropped, as Zulip does: "clap::skin-tone-2"
 * is "clap"), or undefined when Zulip has no such emoji.
 */
export function zulipEmojiOf(slackName: string): { name: string; code: string } | undefined {
  const base = slackName.split("::")[0]!;
  iamcal ??= JSON.parse(iamcalText as unknown as string) as Record<string, string>;
  const code = Object.hasOwn(iamcal, base) ? iamcal[base] : emojiNameToCode(base);
  if (!code) return undefined;
  const name = codeToName(code);
  return name ? { name, code } : undefined;
}
