/**
 * The suggestions for a token in the message text, and how each is drawn (loaded with the first token
 * typed: see TextAutocomplete.tsx).
 */
import { activePeople } from "../state/people";
import { channels, groups, mutedUsers, realm, realmEmoji, subscriptions, users } from "../state/store";
import { emojiNames, loadEmojiNames } from "../lib/emoji";
import { emojiEntries, emojiSuggestions } from "../lib/emoji-match";
import { Avatar } from "../views/people-bits";
import { HashIcon, PeopleIcon } from "../views/icons";
import { EmojiGlyph } from "../views/EmojiGlyph";
import { applySuggestion, channelSuggestions, closeTopicToken, mentionSuggestions, topicSuggestions, type Suggestion, type Token } from "./autocomplete";
import { compose } from "./state";
import type { SuggestionItem } from "./Suggestions";
import { topicNames } from "./topics";

export { applySuggestion, closeTopicToken };
export const people = () => activePeople(users.peek());

let entriesCache: { names: unknown; realm: unknown; entries: ReturnType<typeof emojiEntries> } | null = null;
function allEmoji() {
  const names = emojiNames.value;
  if (!names) return null;
  const custom = realmEmoji.value;
  if (entriesCache?.names !== names || entriesCache.realm !== custom) entriesCache = { names, realm: custom, entries: emojiEntries(names, custom) };
  return entriesCache.entries;
}

export function suggestionsFor(token: Token, preferred: () => readonly number[]): Suggestion[] {
  switch (token.kind) {
    case "mention":
      return mentionSuggestions(token.query, token.silent, {
        users: activePeople(users.value),
        groups: Object.values(groups.value),
        muted: mutedUsers.value,
        preferred: preferred(),
        to: compose.kind.value,
      });
    case "channel": {
      const subs = subscriptions.value;
      return channelSuggestions(
        token.query,
        Object.values(channels.value).map((c) => ({ ...c, subscribed: !!subs[c.stream_id] })),
      );
    }
    case "topic": {
      const ch = Object.values(channels.value).find((c) => c.name.toLowerCase() === token.channel.toLowerCase());
      return ch ? topicSuggestions(ch.name, token.query, topicNames(ch.stream_id)) : [];
    }
    case "emoji": {
      const entries = allEmoji();
      if (!entries) {
        void loadEmojiNames(realm.value.emoji_data_url).catch(() => {});
        return [];
      }
      return emojiSuggestions(token.query, entries).map((e) => ({ kind: "emoji" as const, ...e }));
    }
  }
}

export function itemOf(s: Suggestion, i: number): SuggestionItem {
  switch (s.kind) {
    case "user":
      return {
        key: `u${s.user.user_id}`,
        content: (
          <>
            <Avatar userId={s.user.user_id} size={22} />
            <span class="suggestion-main">{s.user.full_name}</span>
            <span class="suggestion-side">{s.user.email}</span>
          </>
        ),
      };
    case "group":
      return {
        key: `g${s.group.id}`,
        content: (
          <>
            <span class="suggestion-icon"><PeopleIcon size={18} /></span>
            <span class="suggestion-main">{s.group.name}</span>
            <span class="suggestion-side">Group · {s.group.members.length} {s.group.members.length === 1 ? "member" : "members"}</span>
          </>
        ),
      };
    case "wildcard":
      return { key: `w${s.name}`, content: (<><span class="suggestion-icon">@</span><span class="suggestion-main">{s.name}</span><span class="suggestion-side">{s.description}</span></>) };
    case "channel":
      return { key: `c${s.stream_id}`, content: (<><span class="suggestion-icon"><HashIcon size={16} /></span><span class="suggestion-main">{s.name}</span>{!s.subscribed && <span class="suggestion-side">Not subscribed</span>}</>) };
    case "channel-link":
      return { key: "link", content: (<><span class="suggestion-icon"><HashIcon size={16} /></span><span class="suggestion-main">{s.channel}</span><span class="suggestion-side">(link to channel)</span></>) };
    case "topic":
      return {
        key: `t${i}:${s.topic}`,
        content: (
          <>
            <span class="suggestion-main">{s.topic === "" ? realm.value.empty_topic_display_name : s.topic}</span>
            {s.isNew && <span class="suggestion-side">New topic</span>}
          </>
        ),
      };
    case "emoji":
      return { key: `e${s.reaction_type}${s.code}${s.name}`, content: (<><EmojiGlyph emoji={s} /><span class="suggestion-main">:{s.name}:</span></>) };
  }
}
