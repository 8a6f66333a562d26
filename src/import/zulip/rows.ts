// Reading Zulip's export rows: field values whatever their vintage (subject or topic, flags_mask or
// flag names, zerver_huddle or zerver_directmessagegroup), the fields Parley keeps, and rewriting
// ids and upload paths inside message text for the new organization.
import { FLAG } from "../../domain/flags";
import { parleyFlags } from "../../domain/zulip-export";
import { ImportError } from "../common/problems";

export type Row = Record<string, any>;

/** A table of realm.json (a list of rows); absent tables are empty, anything else is refused. */
export function table(data: Row, name: string, file = "realm.json"): Row[] {
  const t = data[name];
  if (t === undefined || t === null) return [];
  if (!Array.isArray(t)) throw new ImportError(`${file}: ${name} is not a list of rows`);
  t.forEach((r, i) => {
    if (!r || typeof r !== "object") throw new ImportError(`${file}: ${name} item ${i + 1} is not an object`);
  });
  return t;
}

/** A foreign key: Zulip writes `stream` (an id), third-party exports sometimes `stream_id`. */
export const fk = (r: Row, name: string): number | null => {
  const v = r[name] ?? r[`${name}_id`];
  return typeof v === "number" ? v : v && typeof v === "object" && typeof v.id === "number" ? v.id : null;
};

/** Timestamps: UNIX seconds (Zulip's export), or an ISO date (some third-party exports). */
export function seconds(v: unknown, fallback: number): number {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && v) {
    const t = Date.parse(v);
    if (Number.isFinite(t)) return t / 1000;
  }
  return fallback;
}

/** Flags of a zerver_usermessage row: `flags_mask` (Zulip's export), or a number or list of names under `flags`. */
export function flagsOf(r: Row): number {
  const v = r.flags_mask ?? r.flags;
  if (typeof v === "number") return parleyFlags(v);
  if (Array.isArray(v)) {
    let bits = 0;
    for (const name of v) {
      if (name === "wildcard_mentioned") bits |= FLAG.stream_wildcard_mentioned;
      else if (typeof name === "string" && name in FLAG) bits |= FLAG[name as keyof typeof FLAG];
    }
    return bits;
  }
  return 0;
}

/** The fields of each table Parley reads (the rest are ignored and reported as such). */
export const KNOWN_FIELDS: Record<string, string[]> = {
  // read, or Zulip's own bookkeeping that has no meaning in another server (passwords, logins, Django's fields)
  zerver_userprofile: ["id", "email", "delivery_email", "full_name", "role", "is_active", "is_bot", "bot_type", "timezone", "date_joined", "realm", "avatar_source",
    "avatar_version", "avatar_hash", "bot_owner", "groups", "user_permissions", "is_mirror_dummy", "password", "api_key", "last_login", "tos_version", "long_term_idle",
    "last_active_message_id", "recipient", "is_staff", "is_billing_admin", "onboarding_steps", "uuid", "last_reminder", "can_create_users", "default_sending_stream",
    "default_events_register_stream", "default_all_public_streams", "is_imported_stub", "short_name"],
  zerver_stream: ["id", "name", "description", "invite_only", "is_web_public", "history_public_to_subscribers", "date_created", "message_retention_days", "deactivated", "is_archived", "recipient", "realm",
    "email_token", "stream_post_policy", "is_in_zephyr_realm", "is_recently_active", "subscriber_count"],
  zerver_subscription: ["id", "user_profile", "recipient", "active", "color", "is_muted", "pin_to_top", "desktop_notifications", "audible_notifications", "push_notifications", "email_notifications", "wildcard_mentions_notify",
    "is_user_active", "in_home_view"],
  zerver_message: ["id", "sender", "recipient", "subject", "topic", "content", "rendered_content", "date_sent", "last_edit_time", "last_moved_time", "edit_history", "has_attachment", "has_image", "has_link", "realm"],
  zerver_usermessage: ["id", "user_profile", "message", "flags_mask", "flags"],
};

/** Per table, the field names seen that Parley does not read (for the summary). */
export class UnknownFields {
  readonly seen = new Map<string, Set<string>>();
  note(tableName: string, row: Row, extra: string[] = []) {
    const known = KNOWN_FIELDS[tableName];
    if (!known) return;
    for (const k of Object.keys(row)) {
      if (known.includes(k) || extra.includes(k)) continue;
      let s = this.seen.get(tableName);
      if (!s) this.seen.set(tableName, (s = new Set()));
      s.add(k);
    }
  }
  lines(): string[] {
    return [...this.seen].map(([t, s]) => {
      const names = [...s].sort();
      return `Ignored ${names.length} field${names.length === 1 ? "" : "s"} of ${t} that Parley has no place for: ${names.slice(0, 8).join(", ")}${names.length > 8 ? ", ..." : ""}.`;
    });
  }
}

export interface IdMaps {
  users: Map<number, number>;
  streams: Map<number, number>;
  groups: Map<number, number>;
  uploads: Map<string, string>;
  emojiFiles: Map<string, string>;
  oldRealmId: number | null;
  newRealmId: number;
}

/**
 * Zulip's rendered HTML names people, channels and groups by id and files by path: each rewritten
 * to the new organization's (an id with no counterpart is left as it was).
 */
export function rewriteHtml(html: string, maps: IdMaps): string {
  const swap = (map: Map<number, number>) => (whole: string, pre: string, id: string) => {
    const to = map.get(Number(id));
    return to === undefined ? whole : `${pre}${to}`;
  };
  let out = html
    .replace(/(data-user-id=")(\d+)/g, swap(maps.users))
    .replace(/(data-stream-id=")(\d+)/g, swap(maps.streams))
    .replace(/(data-user-group-id=")(\d+)/g, swap(maps.groups))
    .replace(/(#narrow\/(?:stream|channel)\/)(\d+)/g, swap(maps.streams));
  out = rewriteUploads(out, maps);
  if (maps.oldRealmId !== null && out.includes("/emoji/images/")) {
    out = out.replace(new RegExp(`/user_avatars/${maps.oldRealmId}/emoji/images/([^"'\\s)]+)`, "g"), (whole, file: string) => {
      const to = maps.emojiFiles.get(file);
      return to === undefined ? whole : `/user_avatars/${maps.newRealmId}/emoji/images/${to}`;
    });
  }
  return out;
}

/** `/user_uploads/OLD-PATH` (and its thumbnails) pointing at the file's new path. */
export function rewriteUploads(text: string, maps: Pick<IdMaps, "uploads">): string {
  if (!text.includes("/user_uploads/") || !maps.uploads.size) return text;
  return text.replace(/\/user_uploads\/(thumbnail\/)?([^\s)"'<>?#]+)/g, (whole, thumb: string | undefined, rest: string) => {
    // a thumbnail's path is the file's path followed by the thumbnail's name
    for (let cut = rest.length; cut > 0; cut = rest.lastIndexOf("/", cut - 1)) {
      const to = maps.uploads.get(rest.slice(0, cut));
      if (to !== undefined) return `/user_uploads/${thumb ?? ""}${to}${rest.slice(cut)}`;
      if (cut <= 0) break;
    }
    return whole;
  });
}

/** Appends to a map of lists (in place: a channel's rows can be many). */
export function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
