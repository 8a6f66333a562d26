/** How a person is drawn: an avatar, a presence dot, their status emoji. */
import { signal } from "@preact/signals";
import { presenceStatus, type PresenceStatus } from "../state/presence";
import { presence, realm, userStatus, users } from "../state/store";
import { EmojiGlyph } from "./EmojiGlyph";

/** dark enough that white initials on them read at 4.5:1 or more (WCAG AA); the colours are in sidebar.css (.avatar-c0 to .avatar-c9) */
const PALETTE_SIZE = 10;
/** the size the stylesheet gives an avatar of initials (a message row's): no inline style for it */
const CSS_SIZE = 36;

const initialsOf = new Map<string, string>();
function initials(name: string): string {
  let found = initialsOf.get(name);
  if (found === undefined) {
    const words = name.replace(/[^\p{L}\p{N}\s]/gu, " ").trim().split(/\s+/).filter(Boolean);
    found = words.length ? ((words[0]![0] ?? "") + (words.length > 1 ? (words[words.length - 1]![0] ?? "") : "")).toUpperCase() : "?";
    initialsOf.set(name, found);
  }
  return found;
}

/**
 * An uploaded avatar from this server is shown as it is; otherwise (Zulip's default is a Gravatar)
 * the person's initials on their colour, so no address of theirs is sent to another site. The colour is
 * a class, and a row's size the stylesheet's: a screen of message rows sets no inline style for them.
 */
export function Avatar({ userId, size = 36, name }: { userId: number; size?: number; name?: string }) {
  const u = users.value[userId];
  const full = u?.full_name ?? name ?? "?";
  const own = u?.avatar_url && u.avatar_url.startsWith("/") ? u.avatar_url : null;
  if (own) return <img class="avatar" src={own} alt="" width={size} height={size} style={{ width: `${size}px`, height: `${size}px` }} />;
  const style = size === CSS_SIZE ? undefined : { width: `${size}px`, height: `${size}px`, fontSize: `${Math.round(size * 0.4)}px` };
  return (
    // the initials are drawn by the stylesheet (attr()), so they are no text of the button or row around them
    <span class={`avatar avatar-initials avatar-c${userId % PALETTE_SIZE}`} style={style} data-initials={initials(full)} aria-hidden="true" />
  );
}

/** Seconds now, ticking every 30 s so presence dots go idle and offline on their own. */
export const nowSeconds = signal(Date.now() / 1000);
setInterval(() => (nowSeconds.value = Date.now() / 1000), 30_000);

export function statusOf(userId: number): PresenceStatus {
  return presenceStatus(presence.value[userId], nowSeconds.value, realm.value.offline_threshold_seconds);
}

const PRESENCE_LABEL: Record<PresenceStatus, string> = { active: "Active", idle: "Idle", offline: "Offline" };

export function PresenceDot({ userId }: { userId: number }) {
  const s = statusOf(userId);
  return <span class={`presence-dot presence-${s}`} role="img" aria-label={PRESENCE_LABEL[s]} title={PRESENCE_LABEL[s]} />;
}

/** Their status emoji, in the reader's emoji set. */
export function StatusEmoji({ userId }: { userId: number }) {
  const st = userStatus.value[userId];
  if (!st?.emoji_name) return null;
  return (
    <span class="status-emoji" role="img" aria-label={st.emoji_name.replace(/_/g, " ")} title={`:${st.emoji_name}:`}>
      <EmojiGlyph emoji={{ name: st.emoji_name, code: st.emoji_code ?? "", reaction_type: st.reaction_type ?? "unicode_emoji" }} size={16} />
    </span>
  );
}
