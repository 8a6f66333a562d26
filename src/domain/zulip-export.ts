/**
 * Zulip keeps some policies as integers where Parley (and Zulip's API) use names: its export holds the
 * integers (MessageEditHistoryVisibilityPolicyEnum, RealmTopicsPolicyEnum, StreamTopicsPolicyEnum).
 */
export const EDIT_HISTORY_POLICY: Record<string, number> = { all: 1, moves: 2, none: 3 };
export const TOPICS_POLICY: Record<string, number> = { allow_empty_topic: 2, disable_empty_topic: 3 };
export const CHANNEL_TOPICS_POLICY: Record<string, number> = { inherit: 1, allow_empty_topic: 2, disable_empty_topic: 3, empty_topic_only: 4 };

/** The name of a policy's integer (or the name itself when an export already holds names). */
export function policyName(table: Record<string, number>, value: unknown): string | undefined {
  if (typeof value === "string" && value in table) return value;
  return Object.entries(table).find(([, n]) => n === value)?.[0];
}

/**
 * Personal message flags: Parley keeps Zulip's first six bits where Zulip has them (read ...
 * topic_wildcard_mentioned), but its has_alert_word and historical bits are Zulip's 9th and 10th (Zulip
 * keeps retired flags in between), and Zulip marks direct messages' rows is_private.
 */
const SAME_BITS = 0b111111;
const ZULIP_HAS_ALERT_WORD = 1 << 9;
const ZULIP_HISTORICAL = 1 << 10;
const ZULIP_IS_PRIVATE = 1 << 11;
const PARLEY_HAS_ALERT_WORD = 1 << 6;
const PARLEY_HISTORICAL = 1 << 7;

export function zulipFlagsMask(parleyFlags: number, isPrivate: boolean): number {
  let mask = parleyFlags & SAME_BITS;
  if (parleyFlags & PARLEY_HAS_ALERT_WORD) mask |= ZULIP_HAS_ALERT_WORD;
  if (parleyFlags & PARLEY_HISTORICAL) mask |= ZULIP_HISTORICAL;
  if (isPrivate) mask |= ZULIP_IS_PRIVATE;
  return mask;
}

export function parleyFlags(zulipMask: number): number {
  let flags = zulipMask & SAME_BITS;
  if (zulipMask & ZULIP_HAS_ALERT_WORD) flags |= PARLEY_HAS_ALERT_WORD;
  if (zulipMask & ZULIP_HISTORICAL) flags |= PARLEY_HISTORICAL;
  return flags;
}
