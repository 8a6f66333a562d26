/**
 * The page: top bar, the sidebars (views, channels and conversations on the left; people on the right,
 * both drawers on a phone), and the current view in the middle.
 */
import { signal } from "@preact/signals";
import { useEffect, useLayoutEffect, useState } from "preact/hooks";
import { settingsView, view } from "../nav/router";
import type { PageView } from "../nav/hash";
import { narrowKey } from "../state/narrow";
import { dmTitle } from "../state/people";
import { channels, counts, realm, settings, users } from "../state/store";
import { showTitle, showUnreadInFavicon } from "../lib/favicon";
import { topicText } from "./bits";
import { ChannelList } from "./ChannelList";
import { ConnectionBanner } from "./ConnectionBanner";
import { DialogHost } from "./Dialog";
import { NotificationBanner } from "./NotificationBanner";
import { startShortcuts } from "../keyboard/shortcuts";
import { DmList } from "./DmList";
import { EmojiPickerHost } from "./emoji-picker-host";
import { lazy } from "../lib/lazy";

// views of writing not needed at start: their code loads when first opened
const DraftsView = lazy(() => import("./DraftsView").then((m) => m.DraftsView));
const ScheduledView = lazy(() => import("./ScheduledView").then((m) => m.ScheduledView));
const BrowseChannels = lazy(() => import("./BrowseChannels").then((m) => m.BrowseChannels));
// a channel's settings and the user groups: their own rooms under settings/, each its own chunk
const ChannelSettings = lazy(() => import("./settings/channels/ChannelSettings").then((m) => m.ChannelSettings));
const GroupsView = lazy(() => import("./settings/groups/GroupsView").then((m) => m.GroupsView));
// the settings overlay and each of its sections are chunks of their own
const SettingsOverlay = lazy(() => import("./settings/SettingsOverlay").then((m) => m.SettingsOverlay));
import { Inbox } from "./Inbox";
import { Lightbox } from "./Lightbox";
import { MessageView } from "./MessageView";
import { Notice } from "./Notice";
import { PeopleList } from "./PeopleList";
import { AfterFirstPaint } from "../lib/after-paint";
import { RecentView } from "./RecentView";
import { SCHEME, TopBar } from "./TopBar";
import { ViewsNav } from "./ViewsNav";

/** Bumped when the state is rebuilt (a new event queue): the views mount afresh and fetch again. */
export const generation = signal(0);

const systemDark = matchMedia("(prefers-color-scheme: dark)");
const prefersDark = signal(systemDark.matches);
systemDark.addEventListener("change", (e) => (prefersDark.value = e.matches));

function viewTitle(v: PageView): string {
  if (v.kind === "inbox") return "Inbox";
  if (v.kind === "recent") return "Recent conversations";
  if (v.kind === "drafts") return "Drafts";
  if (v.kind === "scheduled") return "Scheduled messages";
  if (v.kind === "channels") return "Channels";
  if (v.kind === "channel-settings") return `#${channels.value[v.stream_id]?.name ?? "channel"} settings`;
  if (v.kind === "groups") return "User groups";
  const n = v.narrow;
  switch (n.kind) {
    case "feed":
    case "all":
      return "Combined feed";
    case "mentioned":
      return "Mentions";
    case "starred":
      return "Starred messages";
    case "dms":
      return "Direct messages";
    case "dm":
      return dmTitle(users.value, n.key);
    case "channel":
      return `#${channels.value[n.stream_id]?.name ?? "channel"}`;
    case "topic":
      return `#${channels.value[n.stream_id]?.name ?? "channel"} › ${topicText(n.topic)}`;
    case "search":
      return "Search results";
  }
}

function Main({ v }: { v: PageView }) {
  if (v.kind === "inbox") return <Inbox />;
  if (v.kind === "recent") return <RecentView />;
  if (v.kind === "drafts") return <DraftsView />;
  if (v.kind === "scheduled") return <ScheduledView />;
  if (v.kind === "channels") return <BrowseChannels tab={v.tab} />;
  if (v.kind === "channel-settings") return <ChannelSettings streamId={v.stream_id} section={v.section} />;
  if (v.kind === "groups") return <GroupsView tab={v.tab} groupId={v.group_id} section={v.section ?? "general"} />;
  return <MessageView key={`${narrowKey(v.narrow)}/${v.near ?? ""}`} narrow={v.narrow} near={v.near} />;
}

/** The page's title and icon carry the view's name and the unread count. */
function TitleAndIcon({ v, inSettings }: { v: PageView; inSettings: boolean }) {
  const total = counts.value.total;
  const title = inSettings ? "Settings" : viewTitle(v);
  const name = realm.value.name;
  useEffect(() => {
    showTitle(title, name, total);
    showUnreadInFavicon(total);
  }, [title, name, total]);
  return null;
}

/** The theme: the person's color_scheme setting, or the system's when it says to follow it. */
function Theme() {
  const scheme = settings.value.color_scheme;
  const dark = scheme === SCHEME.dark || (scheme === SCHEME.automatic && prefersDark.value);
  const fluid = settings.value.fluid_layout_width;
  // before the first paint: set after it, the change of color-scheme restyled every element of the page again
  useLayoutEffect(() => {
    document.documentElement.dataset.theme = dark ? "dark" : "light";
  }, [dark]);
  // the message area's width follows the person's fluid_layout_width setting
  useLayoutEffect(() => {
    document.documentElement.toggleAttribute("data-fluid", fluid);
  }, [fluid]);
  return null;
}

export function App({ onRetry }: { onRetry(): void }) {
  const v = view.value;
  const open = settingsView.value;
  const [leftOpen, setLeftOpen] = useState(false);
  const [rightOpen, setRightOpen] = useState(false);

  useEffect(() => {
    setLeftOpen(false);
    setRightOpen(false);
  }, [v]);
  useEffect(startShortcuts, []);
  useEffect(() => {
    if (!leftOpen && !rightOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setLeftOpen(false);
      setRightOpen(false);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [leftOpen, rightOpen]);

  return (
    <div class={`app-shell ${leftOpen ? "left-open" : ""} ${rightOpen ? "right-open" : ""}`}>
      <TitleAndIcon v={v} inSettings={!!open} />
      <Theme />
      {/* beneath the settings overlay, the page is out of reach of the keyboard and of screen readers */}
      <a inert={!!open} class="skip-link" href="#main-pane" onClick={(e) => (e.preventDefault(), document.getElementById("main-pane")?.focus())}>
        Skip to the messages
      </a>
      <TopBar inert={!!open} leftOpen={leftOpen} rightOpen={rightOpen} toggleLeft={() => (setLeftOpen(!leftOpen), setRightOpen(false))} toggleRight={() => (setRightOpen(!rightOpen), setLeftOpen(false))} />
      <div class="banners" inert={!!open}>
        <ConnectionBanner onRetry={onRetry} />
        <NotificationBanner />
      </div>
      <div class="layout" inert={!!open}>
        <nav id="left-sidebar" class="left-sidebar" aria-label="Views, channels and conversations">
          <ViewsNav />
          {/* like the people list: the channels and conversations (hundreds of elements) come in the frame after the messages */}
          <AfterFirstPaint>
            <ChannelList key={generation.value} />
            <DmList />
          </AfterFirstPaint>
        </nav>
        <main id="main-pane" class="main-pane" tabIndex={-1} key={generation.value}>
          <Main v={v} />
        </main>
        <aside id="right-sidebar" class="right-sidebar" aria-label="People">
          {/* the messages first: the people list (hundreds of elements to lay out) comes in the next frame */}
          <AfterFirstPaint>
            <PeopleList />
          </AfterFirstPaint>
        </aside>
        {(leftOpen || rightOpen) && <div class="scrim" aria-hidden="true" onClick={() => (setLeftOpen(false), setRightOpen(false))} />}
      </div>
      {open && <SettingsOverlay v={open} />}
      <Lightbox />
      <EmojiPickerHost />
      <DialogHost />
      <Notice />
    </div>
  );
}
