/**
 * Autocomplete in the message text (see autocomplete.ts for the rules): the suggestions for the token at
 * the cursor, kept current as the person types and moves the cursor; arrows choose, Tab or Enter
 * picks, Esc closes. The text area stays a text box (aria-autocomplete, aria-activedescendant) and
 * the suggestions are a listbox beside it.
 */
import { useEffect, useState } from "preact/hooks";
import { activePeople } from "../state/people";
import { channels, groups, me, mutedUsers, realm, realmEmoji, subscriptions, users } from "../state/store";
import { emojiFromCode, emojiNames, loadEmojiNames } from "../lib/emoji";
import { emojiEntries, emojiSuggestions } from "../lib/emoji-match";
import { Avatar } from "../views/people-bits";
import { HashIcon, PeopleIcon } from "../views/icons";
import { applySuggestion, channelSuggestions, closeTopicToken, mentionSuggestions, tokenAt, topicSuggestions, type Suggestion, type Token } from "./autocomplete";
import { compose, setContent } from "./state";
import { optionId, Suggestions, type SuggestionItem } from "./Suggestions";
import { topicNames } from "./topics";
import { EmojiGlyph } from "../views/EmojiGlyph";

const LIST_ID = "compose-suggestions";

let entriesCache: { names: unknown; realm: unknown; entries: ReturnType<typeof emojiEntries> } | null = null;
function allEmoji() {
  const names = emojiNames.value;
  if (!names) return null;
  const custom = realmEmoji.value;
  if (entriesCache?.names !== names || entriesCache.realm !== custom) entriesCache = { names, realm: custom, entries: emojiEntries(names, custom) };
  return entriesCache.entries;
}

function suggestionsFor(token: Token, preferred: readonly number[]): Suggestion[] {
  switch (token.kind) {
    case "mention":
      return mentionSuggestions(token.query, token.silent, {
        users: activePeople(users.value),
        groups: Object.values(groups.value),
        muted: mutedUsers.value,
        preferred,
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

function itemOf(s: Suggestion, i: number): SuggestionItem {
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

export interface TextAutocomplete {
  /** the list to draw beside the text area (null when closed) */
  list: preact.JSX.Element | null;
  /** attributes for the text area */
  fieldProps: Record<string, string | undefined>;
  /** the cursor moved or the text changed */
  track(el: HTMLTextAreaElement): void;
  /** a key in the text area: true when the autocomplete took it */
  onKeyDown(e: KeyboardEvent, el: HTMLTextAreaElement): boolean;
}

export function useTextAutocomplete(preferred: readonly number[]): TextAutocomplete {
  const [cursor, setCursor] = useState(0);
  const [active, setActive] = useState(0);
  const [closedFor, setClosedFor] = useState<string | null>(null);
  const text = compose.content.value;
  const token = compose.mode.value === "write" ? tokenAt(text, Math.min(cursor, text.length)) : null;
  const tokenKey = token ? `${token.kind}:${token.start}:${"query" in token ? token.query : ""}` : "";
  const suggestions = token && closedFor !== `${text}|${cursor}` ? suggestionsFor(token, preferred) : [];
  const open = suggestions.length > 0;
  // a new token starts at its first suggestion
  useEffect(() => setActive(0), [tokenKey]);
  const at = Math.min(active, Math.max(0, suggestions.length - 1));

  const pick = (i: number, el?: HTMLTextAreaElement | null) => {
    const s = suggestions[i];
    if (!s || !token) return;
    const next = applySuggestion(text, cursor, token, s, activePeople(users.peek()));
    setContent(next.text, next.cursor);
    setCursor(next.cursor);
    el?.focus();
  };

  const list = open ? (
    <Suggestions
      id={LIST_ID}
      label={token?.kind === "emoji" ? "Emoji" : token?.kind === "channel" ? "Channels" : token?.kind === "topic" ? "Topics" : "People and groups"}
      items={suggestions.map(itemOf)}
      active={at}
      onPick={(i) => pick(i, document.querySelector<HTMLTextAreaElement>(".compose-text"))}
      footer={token?.kind === "mention" && token.silent ? "This silent mention won't trigger notifications." : undefined}
    />
  ) : null;

  return {
    list,
    fieldProps: {
      "aria-autocomplete": "list",
      "aria-controls": open ? LIST_ID : undefined,
      "aria-activedescendant": open ? optionId(LIST_ID, at) : undefined,
    },
    track(el) {
      setCursor(el.selectionStart ?? el.value.length);
    },
    onKeyDown(e, el) {
      if (!open || e.isComposing) return false;
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        setActive((at + (e.key === "ArrowDown" ? 1 : -1) + suggestions.length) % suggestions.length);
        return true;
      }
      if ((e.key === "Enter" && !e.shiftKey) || (e.key === "Tab" && !e.shiftKey) || (e.key === ">" && token?.kind === "channel")) {
        e.preventDefault();
        pick(at, el);
        return true;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        if (token?.kind === "topic") {
          const next = closeTopicToken(text, cursor, token);
          setContent(next.text, next.cursor);
          setCursor(next.cursor);
        } else setClosedFor(`${text}|${cursor}`);
        return true;
      }
      return false;
    },
  };
}
