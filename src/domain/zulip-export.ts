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
