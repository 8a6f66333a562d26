/** Per-user topic visibility (Zulip's UserTopic) and the automatic follow/unmute rules on send. */
export const VISIBILITY = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;

/** Whether a topic is muted for a user: muted itself, or in a muted channel and not unmuted or followed. */
export const isTopicMuted = (channelMuted: boolean, policy: number) =>
  policy === VISIBILITY.muted || (channelMuted && policy !== VISIBILITY.unmuted && policy !== VISIBILITY.followed);

/** automatically_follow_topics_policy / automatically_unmute_topics_in_muted_streams_policy values. */
export const AUTO = { onParticipation: 1, onSend: 2, onInitiation: 3, never: 4 } as const;

/** Zulip's defaults for the personal settings the send path reads. */
export interface AutoPrefs {
  automatically_follow_topics_policy: number;
  automatically_unmute_topics_in_muted_streams_policy: number;
  automatically_follow_topics_where_mentioned: boolean;
}
export const AUTO_DEFAULTS: AutoPrefs = {
  automatically_follow_topics_policy: AUTO.onInitiation,
  automatically_unmute_topics_in_muted_streams_policy: AUTO.onSend,
  automatically_follow_topics_where_mentioned: true,
};

export function autoPrefs(settings: Record<string, unknown>): AutoPrefs {
  const num = (k: keyof AutoPrefs) => (typeof settings[k] === "number" ? (settings[k] as number) : (AUTO_DEFAULTS[k] as number));
  return {
    automatically_follow_topics_policy: num("automatically_follow_topics_policy"),
    automatically_unmute_topics_in_muted_streams_policy: num("automatically_unmute_topics_in_muted_streams_policy"),
    automatically_follow_topics_where_mentioned:
      typeof settings.automatically_follow_topics_where_mentioned === "boolean" ? settings.automatically_follow_topics_where_mentioned : true,
  };
}

const applies = (policy: number, initiated: boolean) =>
  policy === AUTO.onSend || policy === AUTO.onParticipation || (policy === AUTO.onInitiation && initiated);

/**
 * Zulip's visibility_policy_for_send_message: the sender's new policy for the topic after sending,
 * or null when it does not change.
 */
export function policyAfterSend(prefs: AutoPrefs, current: number, streamMuted: boolean, initiated: boolean): number | null {
  if (current === VISIBILITY.followed) return null;
  let next: number | null = null;
  if (applies(prefs.automatically_follow_topics_policy, initiated)) next = VISIBILITY.followed;
  else if (streamMuted && applies(prefs.automatically_unmute_topics_in_muted_streams_policy, initiated)) next = VISIBILITY.unmuted;
  return next === current ? null : next;
}

/** Zulip's policy after reacting (participation only). */
export function policyAfterParticipation(prefs: AutoPrefs, current: number, streamMuted: boolean): number | null {
  if (current === VISIBILITY.followed) return null;
  let next: number | null = null;
  if (prefs.automatically_follow_topics_policy === AUTO.onParticipation) next = VISIBILITY.followed;
  else if (streamMuted && prefs.automatically_unmute_topics_in_muted_streams_policy === AUTO.onParticipation) next = VISIBILITY.unmuted;
  return next === current ? null : next;
}
