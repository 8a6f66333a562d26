/** A select field's options, one a line, as Zulip's field_data: {"0": {text, order}, …}. */
export const selectOptions = (lines: string) =>
  Object.fromEntries(
    lines
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean)
      .map((text, i) => [String(i), { text, order: String(i + 1) }]),
  );
