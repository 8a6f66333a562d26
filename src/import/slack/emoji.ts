// Slack reaction names to Zulip's emoji (Zulip's slack.py goes through iamcal's names, which Slack
// uses, to a code point and then to Zulip's name for it). Most names are also Zulip names or
// aliases; the iamcal names Zulip spells differently are listed here by code point.
import { codeToName, emojiNameToCode } from "../../domain/emoji";

const IAMCAL_ONLY: Record<string, string> = {
  thumbsup: "1f44d",
  thumbsdown: "1f44e",
  white_check_mark: "2705",
  heavy_check_mark: "2714",
  heavy_plus_sign: "2795",
  heavy_minus_sign: "2796",
  slightly_smiling_face: "1f642",
  simple_smile: "1f642",
  slightly_frowning_face: "1f641",
  white_frowning_face: "2639",
  upside_down_face: "1f643",
  face_with_rolling_eyes: "1f644",
  thinking_face: "1f914",
  hugging_face: "1f917",
  "star-struck": "1f929",
  neutral_face: "1f610",
  ok_hand: "1f44c",
  face_palm: "1f926",
  facepalm: "1f926",
  arrow_up: "2b06",
  arrow_down: "2b07",
  grimacing: "1f62c",
};

/**
 * The Zulip emoji of a Slack reaction name (skin tones dropped, as Zulip does: "clap::skin-tone-2"
 * is "clap"), or undefined when Zulip has no such emoji.
 */
export function zulipEmojiOf(slackName: string): { name: string; code: string } | undefined {
  const base = slackName.split("::")[0]!;
  const code = emojiNameToCode(base) ?? IAMCAL_ONLY[base];
  if (!code) return undefined;
  const name = codeToName(code);
  return name ? { name, code } : undefined;
}
