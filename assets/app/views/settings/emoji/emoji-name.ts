/** Zulip's rule for the name, checked before sending (the server checks again). */
export function emojiNameProblem(name: string): string | null {
  if (!name.trim()) return "Enter a name for the emoji.";
  if (!/^[0-9a-z_ -]*[0-9a-z]$/.test(name.trim().toLowerCase())) return "Emoji names may contain lowercase letters, digits, spaces, dashes and underscores, and must end with a letter or digit.";
  return null;
}
