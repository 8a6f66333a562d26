/**
 * Personal message flags, stored as a bitmask in user_messages.flags (see the schema comment).
 * `wildcard_mentioned` is not stored: it is reported when either wildcard flag is set.
 */
export const FLAG = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  has_alert_word: 64,
  historical: 128,
} as const;
export type StoredFlag = keyof typeof FLAG;

/** Every flag name the API knows (the deprecated wildcard_mentioned included). */
export const ALL_FLAGS: readonly string[] = [...Object.keys(FLAG), "wildcard_mentioned"];

/** Flags a user may add or remove with POST /messages/flags. */
export const USER_SETTABLE_FLAGS: readonly StoredFlag[] = ["read", "starred", "collapsed"];

const ORDER = Object.entries(FLAG) as [StoredFlag, number][];
const WILDCARDS = FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned;

/** The flag names of a bitmask, in Zulip's order, with wildcard_mentioned derived. */
export function flagList(bits: number): string[] {
  const out: string[] = [];
  for (const [name, bit] of ORDER) {
    if (bits & bit) out.push(name);
    if (name === "topic_wildcard_mentioned" && bits & WILDCARDS) out.push("wildcard_mentioned");
  }
  return out;
}

export const isUnread = (bits: number) => (bits & FLAG.read) === 0;
