/**
 * What zulip-terminal reads, transcribed from its source (zulipterminal/model.py, helper.py,
 * ui_tools/messages.py, ui_tools/views.py, cli/run.py). Python reads a key with `d["x"]` (the key
 * must be there) or `d.get("x")` (optional); only the `[...]` reads are listed as needed. Object
 * names are the function that reads them.
 */
import { anyValue, bool, either, int, list, map, num, obj, oneOf, optional, present, str, type Shape } from "./shape";

const ids = list(int);

/** Model.get_user_id_from_reaction: user_id, or the pre-3.0 user.{id,user_id}. */
const Reaction = obj("MessageBox.reactions_view", { emoji_name: str, emoji_code: str, reaction_type: str }, (v, at, out) => {
  if (!Number.isInteger(v.user_id ?? v.user?.id ?? v.user?.user_id)) out.push(`${at}.user_id: missing (Model.get_user_id_from_reaction)`);
});

/** widget.py process_poll_widget / process_todo_widget: what each submessage's JSON must carry. */
function widgetProblems(subs: any[], at: string, out: string[]) {
  subs.forEach((sub, i) => {
    const here = `${at}.submessages[${i}]`;
    if (sub?.msg_type !== "widget" || typeof sub?.content !== "string") return;
    let w: any;
    try {
      w = JSON.parse(sub.content);
    } catch {
      return void out.push(`${here}.content: not JSON (json.loads)`);
    }
    if (w?.widget_type === "poll") {
      obj("process_poll_widget", { extra_data: obj("process_poll_widget (extra_data)", { question: str, options: list(str) }) }).check(w, `${here}.content`, out);
    } else if (w?.widget_type === "todo") {
      const tasks = w.extra_data?.tasks ?? [];
      if (!Array.isArray(tasks) || tasks.some((t: any) => typeof t?.task !== "string")) out.push(`${here}.content: extra_data.tasks[].task missing (process_todo_widget)`);
    } else if (w?.type === "question") str.check(w.question, `${here}.content.question`, out);
    else if (w?.type === "vote") {
      str.check(w.key, `${here}.content.key`, out);
      int.check(w.vote, `${here}.content.vote`, out);
    } else if (w?.type === "new_option") {
      int.check(w.idx, `${here}.content.idx`, out);
      str.check(w.option, `${here}.content.option`, out);
    } else if (w?.type === "new_task") {
      str.check(w.task, `${here}.content.task`, out);
    } else if (w?.type === "strike") {
      str.check(w.key, `${here}.content.key`, out);
    } else if (w?.type === "new_task_list_title") str.check(w.title, `${here}.content.title`, out);
  });
  // find_widget_type: the first one's content names the widget
  if (subs.length && typeof subs[0]?.content !== "string") out.push(`${at}.submessages[0].content: missing (find_widget_type)`);
}

const messageFields = {
  id: int,
  type: oneOf("stream", "private"),
  timestamp: int, // create_msg_box_list sorts by it
  sender_id: int,
  sender_email: str,
  sender_full_name: str,
  content: str,
  is_me_message: bool, // MessageBox.main_view
  reactions: list(Reaction),
  flags: list(str), // index_messages
  topic_links: optional(list(anyValue)), // Model.modernize_message_response
  // Model._handle_submessage_event appends to message["submessages"]
  submessages: list(obj("submessage", { content: str, sender_id: int, msg_type: str })),
};
/** MessageBox.__init__ / index_messages: a channel message. */
const widgets = (v: Record<string, any>, at: string, out: string[]) => widgetProblems(Array.isArray(v.submessages) ? v.submessages : [], at, out);
const StreamMessage = obj("MessageBox (stream)", { ...messageFields, display_recipient: str, stream_id: int, subject: str }, widgets);
/** MessageBox.__init__: a direct message's recipients. */
const PrivateMessage = obj("MessageBox (private)", {
  ...messageFields,
  display_recipient: list(obj("MessageBox.recipients", { id: int, email: str, full_name: str })),
}, widgets);
export const Message: Shape = either("Message", (v: any) => (v?.type === "stream" ? StreamMessage : v?.type === "private" ? PrivateMessage : `unknown message type ${JSON.stringify(v?.type)}`));

/** Model.get_messages. */
export const GetMessagesResponse = obj("Model.get_messages", { anchor: int, found_newest: bool, messages: list(Message) });

/** Legacy presence (no slim_presence): email -> client -> {status, timestamp}, with "aggregated". */
const LegacyPresence = map(
  map(obj("Model._update_users_data_from_initial_data (presence)", { status: str, timestamp: num })),
);
const legacyPresences: Shape = {
  describe: "presences by email",
  check(v, at, out) {
    LegacyPresence.check(v, at, out);
    if (v && typeof v === "object")
      for (const [email, clients] of Object.entries(v as object)) {
        if (!email.includes("@")) out.push(`${at}: key ${email} is not an email (zulip-terminal looks users up by email)`);
        if (!clients?.aggregated) out.push(`${at}[${email}].aggregated: missing (Model.get_user_info)`);
      }
  },
};

export const Subscription = obj("Model._subscribe_to_streams", {
  name: str,
  stream_id: int,
  color: str, // canonicalize_color
  description: str,
  pin_to_top: bool,
  is_muted: bool,
  desktop_notifications: present(bool),
  invite_only: bool, // Model.stream_access_type
  message_retention_days: present(int), // Model.normalize_and_cache_message_retention_text
  subscribers: ids, // StreamInfoView, get_other_subscribers_in_stream (include_subscribers)
  date_created: present(int), // StreamInfoView
  history_public_to_subscribers: bool, // StreamInfoView
  stream_weekly_traffic: present(int), // StreamInfoView
  rendered_description: str, // StreamInfoView
  stream_post_policy: optional(oneOf(1, 2, 3, 4)), // StreamInfoView: STREAM_POST_POLICY[...] when present
});

const RealmUser = obj("Model._update_users_data_from_initial_data", {
  user_id: int,
  email: str,
  full_name: str,
  is_bot: bool,
  profile_data: optional(map(obj("Model._clean_and_order_custom_profile_data", { value: anyValue }))),
});

/** Model.__init__ / _fetch_initial_data / _register_desired_events / classify_unread_counts. */
export const RegisterResponse = obj("Model._register_desired_events", {
  queue_id: str,
  last_event_id: int,
  max_message_id: int,
  zulip_version: str,
  zulip_feature_level: optional(int),
  user_id: int,
  email: str,
  full_name: str,
  realm_name: str,
  presences: legacyPresences,
  realm_users: list(RealmUser),
  cross_realm_bots: list(obj("Model._update_users_data_from_initial_data (cross_realm_bots)", { user_id: int, email: str, full_name: str })),
  subscriptions: list(Subscription),
  realm_message_retention_days: present(int),
  // [stream_name, topic, date_muted]
  muted_topics: list(list(anyValue)),
  realm_user_groups: list(obj("Model._group_info_from_realm_user_groups", { id: int, name: str })),
  realm_emoji: map(obj("Model.generate_all_emoji_data", { name: str, deactivated: bool })),
  user_settings: obj("Model.__init__ (user_settings)", { send_private_typing_notifications: bool, twenty_four_hour_time: bool, pm_content_in_desktop_notifications: bool }),
  custom_profile_fields: list(obj("Model._clean_and_order_custom_profile_data (fields)", { id: int, type: int, name: str, order: int, field_data: str })),
  unread_msgs: obj("classify_unread_counts", {
    mentions: ids,
    pms: list(obj("classify_unread_counts (pms)", { sender_id: int, unread_message_ids: ids })),
    streams: list(obj("classify_unread_counts (streams)", { stream_id: int, topic: str, unread_message_ids: ids })),
    huddles: list(obj("classify_unread_counts (huddles)", { user_ids_string: str, unread_message_ids: ids }, (v, at, out) => {
      if (!/^\d+(,\d+)*$/.test(v.user_ids_string)) out.push(`${at}.user_ids_string: not comma-separated ids`);
    })),
  }),
  starred_messages: ids, // StarredButton
  realm_allow_edit_history: bool, // MsgInfoView (edited messages)
}, (v, at, out) => {
  // Model.__init__: assert set(map(len, muted_topics)) in (set(), {2}, {3})
  const lens = new Set((v.muted_topics ?? []).map((t: unknown[]) => t.length));
  if (lens.size > 1 || (lens.size === 1 && ![2, 3].includes([...lens][0] as number))) out.push(`${at}.muted_topics: entries must all be [stream, topic] or [stream, topic, date_muted]`);
  // _clean_and_order_custom_profile_data: profile_fields[field_id] for every key a user has
  const fieldIds = new Set((v.custom_profile_fields ?? []).map((f: any) => String(f.id)));
  for (const u of v.realm_users ?? []) for (const k of Object.keys(u.profile_data ?? {})) if (!fieldIds.has(k)) out.push(`${at}.realm_users: profile_data key ${k} is not a custom profile field`);
});

/** Model._start_presence_updates: response["presences"], legacy format. */
export const UpdatePresenceResponse = obj("Model._start_presence_updates", { presences: legacyPresences });
/** cli/run.py get_api_key / get_login_label, and zulip.Client's feature-level check. */
export const ServerSettings = obj("cli.run.get_server_settings", { realm_uri: str, require_email_format_usernames: bool, email_auth_enabled: bool, zulip_version: optional(str), zulip_feature_level: optional(int) });
/** cli/run.py get_api_key. */
export const FetchApiKeyResponse = obj("cli.run.get_api_key", { api_key: str });
/** Model._fetch_topics_in_streams. */
export const StreamTopicsResponse = obj("Model._fetch_topics_in_streams", { topics: list(obj("topic", { name: str })) });
/** Model.fetch_raw_message_content. */
export const RawMessageResponse = obj("Model.fetch_raw_message_content", { raw_content: str });
/** Model.fetch_message_history / EditHistoryView. */
export const MessageHistoryResponse = obj("Model.fetch_message_history", {
  message_history: list(obj("EditHistoryView", { content: str, topic: str, timestamp: int, user_id: optional(int), prev_content: optional(str), prev_topic: optional(str) })),
});

// --- events (Model.event_actions and poll_for_events) --------------------------------------------

const ev = (name: string, fields: Parameters<typeof obj>[1], refine?: Parameters<typeof obj>[2]) => obj(name, { id: int, type: str, ...fields }, refine);

const EVENTS: Record<string, Shape> = {
  // message["flags"] = event.get("flags", []) before the message is read
  message: ev("Model._handle_message_event", { message: anyValue, flags: optional(list(str)) }, (v, at, out) => Message.check({ ...v.message, flags: v.flags ?? [] }, `${at}.message`, out)),
  update_message: ev("Model._handle_update_message_event", { message_id: int }, (v, at, out) => {
    if ("rendered_content" in v) {
      str.check(v.rendered_content, `${at}.rendered_content`, out);
      if (typeof v.is_me_message !== "boolean") out.push(`${at}.is_me_message: missing beside rendered_content`);
    }
    if ("subject" in v) {
      str.check(v.subject, `${at}.subject`, out);
      if (!Number.isInteger(v.stream_id)) out.push(`${at}.stream_id: missing beside subject`);
      if (typeof v.orig_subject !== "string") out.push(`${at}.orig_subject: missing beside subject`);
      ids.check(v.message_ids, `${at}.message_ids`, out);
    }
  }),
  reaction: ev("Model._handle_reaction_event", { message_id: int, op: oneOf("add", "remove"), emoji_code: str, emoji_name: str, reaction_type: str }, (v, at, out) => {
    if (!Number.isInteger(v.user_id ?? v.user?.user_id)) out.push(`${at}.user_id: missing (Model.get_user_id_from_reaction)`);
  }),
  submessage: ev("Model._handle_submessage_event", { message_id: int, msg_type: str, submessage_id: int, sender_id: int, content: str }, (v, at, out) =>
    widgetProblems([v], at, out),
  ),
  subscription: ev("Model._handle_subscription_event", { op: str }, (v, at, out) => {
    if (v.op === "update" && ["in_home_view", "is_muted", "pin_to_top", "desktop_notifications"].includes(v.property)) {
      int.check(v.stream_id, `${at}.stream_id`, out);
      if (!("value" in v)) out.push(`${at}.value: missing`);
    }
    if (v.op === "peer_add" || v.op === "peer_remove") {
      ids.check(v.stream_ids, `${at}.stream_ids`, out);
      ids.check(v.user_ids, `${at}.user_ids`, out);
    }
  }),
  // read before it checks the narrow, so for every typing event it gets
  typing: ev("Model._handle_typing_event", { op: oneOf("start", "stop"), sender: obj("typing sender", { email: str, user_id: int }) }),
  update_message_flags: ev("Model._handle_update_message_flags_event", { op: oneOf("add", "remove"), all: bool, flag: str, messages: ids }),
  user_settings: ev("Model._handle_user_settings_event", { op: oneOf("update"), property: str, value: anyValue }),
  realm_emoji: ev("Model._handle_update_emoji_event", { realm_emoji: map(obj("Model.generate_all_emoji_data", { name: str, deactivated: bool })) }),
  realm_user: ev("Model._handle_realm_user_event", { op: str }, (v, at, out) => {
    if (v.op !== "update") return;
    const p = v.person;
    if (!p || !Number.isInteger(p.user_id)) return void out.push(`${at}.person.user_id: missing`);
    if ("custom_profile_field" in p && !("new_email" in p)) {
      int.check(p.custom_profile_field?.id, `${at}.person.custom_profile_field.id`, out);
      if (!p.custom_profile_field || !("value" in p.custom_profile_field)) out.push(`${at}.person.custom_profile_field.value: missing`);
    }
  }),
};

/** Model.poll_for_events: int(event["id"]) for every event, then the handler of its type (others are skipped). */
export const Event: Shape = either("Event", (v: any) => EVENTS[v?.type] ?? obj("Model.poll_for_events", { id: int, type: str }));
export const GetEventsResponse = obj("Model.poll_for_events", { events: list(Event) });

/** The event types zulip-terminal registers for (Model.event_actions). */
export const HANDLED_EVENTS = Object.keys(EVENTS);
