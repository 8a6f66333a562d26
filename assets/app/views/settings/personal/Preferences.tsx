/**
 * Preferences (Zulip's settings_preferences), every one stored with the account (PATCH /settings), so
 * they follow the person to any browser and to Zulip's other apps: the theme, the home view, the time
 * format, what Enter does, reading on scroll, starred counts, the width of the message area, the
 * emoji set.
 */
import { settings } from "../../../state/store";
import { Select, Toggle } from "../controls";
import { saveSetting } from "./save-setting";

/** Zulip's color_scheme values: 1 automatic, 2 dark, 3 light. */
export const THEMES = [
  { value: 1, label: "Follow the system's theme" },
  { value: 3, label: "Light" },
  { value: 2, label: "Dark" },
];

export const HOME_VIEWS = [
  { value: "inbox", label: "Inbox" },
  { value: "recent_topics", label: "Recent conversations" },
  { value: "all_messages", label: "Combined feed" },
];

const TIME_FORMATS = [
  { value: false, label: "12-hour clock (5:00 PM)" },
  { value: true, label: "24-hour clock (17:00)" },
];

const ENTER = [
  { value: true, label: "Enter sends, Shift+Enter makes a new line" },
  { value: false, label: "Ctrl+Enter sends, Enter makes a new line" },
];

const MARK_READ = [
  { value: 1, label: "Always" },
  { value: 2, label: "Only in conversation views" },
  { value: 3, label: "Never" },
];

/** The sets Parley draws (lib/emoji-set.ts); Zulip's other two, set from Zulip's apps, are shown for what they are here. */
const EMOJISETS = [
  { value: "google", label: "Google" },
  { value: "text", label: "Plain text (:smile:)" },
];
const OTHER_APPS_SETS: Record<string, string> = { twitter: "Twitter", "google-blob": "Google blobs" };

function emojisetChoices(current: string) {
  const other = OTHER_APPS_SETS[current];
  return other ? [...EMOJISETS, { value: current, label: `${other} (in Zulip's apps; drawn here with Google's images)` }] : EMOJISETS;
}

export function Preferences() {
  const s = settings.value;
  return (
    <div class="settings-section">
      <h3>General</h3>
      <Select label="Theme" name="color_scheme" value={s.color_scheme} choices={THEMES} onSave={saveSetting("color_scheme")} />
      <Select label="Home view" name="web_home_view" value={s.web_home_view} choices={HOME_VIEWS} hint="Where the app opens, and where Escape takes you." onSave={saveSetting("web_home_view")} />
      <Select label="Time format" name="twenty_four_hour_time" value={s.twenty_four_hour_time} choices={TIME_FORMATS} onSave={saveSetting("twenty_four_hour_time")} />
      <Select label="Sending messages" name="enter_sends" value={s.enter_sends} choices={ENTER} onSave={saveSetting("enter_sends")} />
      <Toggle label="Use the full width of wide screens for messages" checked={s.fluid_layout_width} onSave={saveSetting("fluid_layout_width")} />
      <h3>Reading</h3>
      <Select label="Mark messages as read on scroll" name="web_mark_read_on_scroll_policy" value={s.web_mark_read_on_scroll_policy} choices={MARK_READ} onSave={saveSetting("web_mark_read_on_scroll_policy")} />
      <Toggle label="Show the number of starred messages" checked={s.starred_message_counts} onSave={saveSetting("starred_message_counts")} />
      <Toggle label="Keep drafts on the server, to find them on your other devices" checked={s.enable_drafts_synchronization} onSave={saveSetting("enable_drafts_synchronization")} />
      <h3>Emoji</h3>
      <Select label="Emoji set" name="emojiset" value={s.emojiset} choices={emojisetChoices(s.emojiset)} hint="How emoji look in messages, reactions, the picker and statuses." onSave={saveSetting("emojiset")} />
    </div>
  );
}
