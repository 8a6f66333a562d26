/** Zulip's message_edit_history_visibility_policy: all edits, only moves, or nothing. */
export type EditHistoryPolicy = "all" | "moves" | "none";

const CONTENT_KEYS = ["prev_content", "prev_rendered_content", "prev_rendered_content_version", "content_html_diff"];

/** Whether an edit-history entry moved the message (topic or channel). */
export const isMove = (e: Record<string, unknown>) => "prev_topic" in e || "prev_stream" in e;

/** The entries a viewer may see under the policy: with "moves", move entries without their content parts. */
export function visibleEditHistory<T extends Record<string, unknown>>(entries: T[], policy: EditHistoryPolicy): T[] {
  if (policy === "none") return [];
  if (policy === "all") return entries;
  return entries.filter(isMove).map((e) => {
    const out = { ...e };
    for (const k of CONTENT_KEYS) delete out[k];
    return out;
  });
}

/** The policy from the organization's settings (the legacy boolean when the policy was never set). */
export function editHistoryPolicy(settings: { message_edit_history_visibility_policy?: unknown; allow_edit_history?: unknown }): EditHistoryPolicy {
  const p = settings.message_edit_history_visibility_policy;
  if (p === "all" || p === "moves" || p === "none") return p;
  return settings.allow_edit_history === false ? "none" : "all";
}
