/**
 * A message's emoji reactions: each emoji with how many reacted, highlighted when the person did too,
 * named in its tooltip ("You (click to remove) and Iago reacted with :tada:"); a click toggles theirs.
 */
import { addReaction, removeReaction, type EmojiRef } from "../api/calls";
import { describeError } from "../api/http";
import { noteEmojiUse } from "../lib/emoji";
import type { EmojiEntry } from "../lib/emoji-match";
import { me, users } from "../state/store";
import type { Message } from "../state/types";
import { EmojiGlyph } from "./EmojiGlyph";
import { openEmojiPicker } from "./emoji-picker-host";
import { AddReactionIcon } from "./icons-writing";
import { showNotice } from "./Notice";

interface Group extends EmojiRef {
  users: number[];
}

/** Reactions by emoji, in the order each emoji first came. */
export function groupReactions(m: Message): Group[] {
  const groups = new Map<string, Group>();
  for (const r of m.reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    const g = groups.get(key) ?? { emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type, users: [] };
    if (!g.users.includes(r.user_id)) g.users.push(r.user_id);
    groups.set(key, g);
  }
  return [...groups.values()];
}

// made when first needed: a formatter's locale data costs milliseconds, which the first frame need not pay
let list: Intl.ListFormat | undefined;

/** Zulip's reaction tooltip: who reacted, the person first. */
export function reactionLabel(g: Group, myId: number, nameOf: (id: number) => string): string {
  const mine = g.users.includes(myId);
  const names = [...(mine ? ["You (click to remove)"] : []), ...g.users.filter((id) => id !== myId).map(nameOf)];
  return `${(list ??= new Intl.ListFormat(undefined, { style: "long", type: "conjunction" })).format(names)} reacted with :${g.emoji_name}:`;
}

/** Adds the person's reaction, or takes it back when they already reacted so. */
export function toggleReaction(m: Message, e: EmojiRef): void {
  const myId = me.peek();
  const mine = m.reactions.some((r) => r.user_id === myId && r.reaction_type === e.reaction_type && r.emoji_code === e.emoji_code);
  const ref = { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type };
  (mine ? removeReaction(m.id, ref) : addReaction(m.id, ref)).catch((err) => showNotice(`Could not ${mine ? "remove" : "add"} the reaction: ${describeError(err)}`));
}

/** Opens the emoji picker to react to a message. */
export function openReactionPicker(m: Message, anchor: HTMLElement): void {
  openEmojiPicker({
    anchor,
    label: "Add a reaction to this message",
    onPick: (e: EmojiEntry) => toggleReaction(m, { emoji_name: e.name, emoji_code: e.code, reaction_type: e.reaction_type }),
  });
}

export function Reactions({ m }: { m: Message }) {
  const groups = groupReactions(m);
  if (!groups.length) return null;
  const myId = me.value;
  const nameOf = (id: number) => users.value[id]?.full_name ?? "Unknown user";
  return (
    <div class="reactions" role="group" aria-label="Reactions">
      {groups.map((g) => {
        const mine = g.users.includes(myId);
        const label = reactionLabel(g, myId, nameOf);
        return (
          <button
            type="button"
            key={`${g.reaction_type}:${g.emoji_code}`}
            class={`reaction ${mine ? "reacted" : ""}`}
            aria-pressed={mine}
            aria-label={`${g.users.length} ${g.users.length === 1 ? "reaction" : "reactions"}: ${label}`}
            title={label}
            onClick={() => {
              if (!mine) noteEmojiUse(myId, { reaction_type: g.reaction_type as EmojiEntry["reaction_type"], code: g.emoji_code, name: g.emoji_name });
              toggleReaction(m, g);
            }}
          >
            <EmojiGlyph emoji={{ name: g.emoji_name, code: g.emoji_code, reaction_type: g.reaction_type }} size={17} />
            <span class="reaction-count">{g.users.length}</span>
          </button>
        );
      })}
      <button type="button" class="reaction reaction-add" aria-label="Add emoji reaction" title="Add emoji reaction" onClick={(e) => openReactionPicker(m, e.currentTarget)}>
        <AddReactionIcon size={17} />
      </button>
    </div>
  );
}
