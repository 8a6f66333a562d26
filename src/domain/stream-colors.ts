/** Zulip's palette for new subscriptions, and how a colour is picked. */
export const STREAM_ASSIGNMENT_COLORS = [
  "#76ce90", "#fae589", "#a6c7e5", "#e79ab5", "#bfd56f", "#f4ae55", "#b0a5fd", "#addfe5", "#f5ce6e", "#c2726a",
  "#94c849", "#bd86e5", "#ee7e4a", "#a6dcbf", "#95a5fd", "#53a063", "#9987e1", "#e4523d", "#c2c2c2", "#4f8de4",
  "#c6a8ad", "#e7cc4d", "#c8bebf", "#a47462",
];

/** The first palette colour the user does not use yet (marking it used), cycling when all are taken. */
export function pickColor(used: Set<string>): string {
  const free = STREAM_ASSIGNMENT_COLORS.find((c) => !used.has(c));
  const color = free ?? STREAM_ASSIGNMENT_COLORS[used.size % STREAM_ASSIGNMENT_COLORS.length]!;
  used.add(color);
  return color;
}

export const isHexColor = (value: string) => /^#[0-9a-fA-F]{6}$/.test(value);
