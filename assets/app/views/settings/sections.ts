/**
 * The settings overlay's sections, in the order its menu lists them, with Zulip's names in the URL
 * (`#settings/<id>` for the personal area, `#organization/<id>` for the organization's).
 *
 * To add a section: write its screen as `./<area-folder>/<Screen>.tsx` exporting a component with no props
 * (it reads the store: `state/store.ts` signals; it saves through `api/http.ts` with the controls of
 * `./controls/`, and shows what events bring back, not the request's answer), then add an entry below
 * with its Zulip id, its label, `visible` (from the rules of `state/permissions.ts`, the same the server
 * applies; a hidden section's URL opens the area's first section) and `load`, a dynamic import, so its
 * code is its own chunk fetched when the section is first opened.
 */
import type { ComponentType } from "preact";
import type { SettingsArea } from "../../nav/hash";
import type { State } from "../../state/types";
import { creatableBotTypes, isAdmin, seesOrgSection, type OrgSection } from "../../state/permissions";

export interface Section {
  id: string;
  area: SettingsArea;
  label: string;
  visible(state: State): boolean;
  load(): Promise<ComponentType>;
}

const always = () => true;
/** "Your bots": for those who may create bots or own some. */
const hasBots = (s: State) => creatableBotTypes(s).length > 0 || Object.values(s.bots ?? {}).some((b) => b.owner_id === s.me);

/** Integrations: for those who may create incoming-webhook bots or own one. */
const hasWebhookBots = (s: State) => creatableBotTypes(s).includes(2) || Object.values(s.bots ?? {}).some((b) => b.owner_id === s.me && b.bot_type === 2);

/** The organization's administration screens (Zulip's ids), each seen by whom state/permissions.ts says. */
const org = (id: string, label: string, section: OrgSection, load: () => Promise<ComponentType>): Section => ({ id, area: "organization", label, visible: (s) => seesOrgSection(s, section), load });
const ORGANIZATION_SECTIONS: Section[] = [
  org("organization-profile", "Organization profile", "profile", () => import("./organization/OrgProfile").then((m) => m.OrgProfile)),
  org("organization-settings", "Organization settings", "settings", () => import("./organization/OrgSettings").then((m) => m.OrgSettings)),
  org("organization-permissions", "Organization permissions", "permissions", () => import("./organization/OrgPermissions").then((m) => m.OrgPermissions)),
  org("organization-level-user-defaults", "Default user settings", "user-defaults", () => import("./organization/UserDefaults").then((m) => m.UserDefaults)),
  org("emoji-settings", "Custom emoji", "emoji", () => import("./emoji/CustomEmoji").then((m) => m.CustomEmoji)),
  org("linkifier-settings", "Linkifiers", "linkifiers", () => import("./linkifiers/Linkifiers").then((m) => m.Linkifiers)),
  org("playground-settings", "Code playgrounds", "playgrounds", () => import("./linkifiers/Playgrounds").then((m) => m.Playgrounds)),
  org("profile-field-settings", "Custom profile fields", "profile-fields", () => import("./profile-fields/ProfileFields").then((m) => m.ProfileFields)),
  org("default-channels-list", "Default channels", "default-channels", () => import("./default-channels/DefaultChannels").then((m) => m.DefaultChannels)),
  org("channel-folders", "Channel folders", "channel-folders", () => import("./channel-folders/ChannelFolders").then((m) => m.ChannelFolders)),
  org("invites-list-admin", "Invitations", "invites", () => import("./invites/Invitations").then((m) => m.Invitations)),
  org("server", "Server", "server", () => import("./server/ServerPage").then((m) => m.ServerPage)),
];

export const SECTIONS: Section[] = [
  // personal
  { id: "profile", area: "personal", label: "Profile", visible: always, load: () => import("./personal/Profile").then((m) => m.Profile) },
  { id: "account-and-privacy", area: "personal", label: "Account & privacy", visible: always, load: () => import("./personal/Account").then((m) => m.Account) },
  { id: "preferences", area: "personal", label: "Preferences", visible: always, load: () => import("./personal/Preferences").then((m) => m.Preferences) },
  { id: "notifications", area: "personal", label: "Notifications", visible: always, load: () => import("./personal/Notifications").then((m) => m.Notifications) },
  { id: "status", area: "personal", label: "Status", visible: always, load: () => import("./personal/Status").then((m) => m.Status) },
  { id: "muted-users", area: "personal", label: "Muted users", visible: always, load: () => import("./personal/MutedUsers").then((m) => m.MutedUsers) },
  { id: "topics", area: "personal", label: "Topics", visible: always, load: () => import("./personal/Topics").then((m) => m.Topics) },
  { id: "alert-words", area: "personal", label: "Alert words", visible: always, load: () => import("./personal/AlertWords").then((m) => m.AlertWords) },
  { id: "saved-snippets", area: "personal", label: "Saved snippets", visible: always, load: () => import("./personal/SavedSnippets").then((m) => m.SavedSnippets) },
  { id: "your-bots", area: "personal", label: "Bots", visible: hasBots, load: () => import("./bots/Bots").then((m) => m.YourBots) },
  { id: "integrations", area: "personal", label: "Integrations", visible: hasWebhookBots, load: () => import("./integrations/Integrations").then((m) => m.Integrations) },
  // organization (the administration screens add theirs here)
  ...ORGANIZATION_SECTIONS,
  { id: "user-list-admin", area: "organization", label: "Users", visible: always, load: () => import("./people/Users").then((m) => m.Users) },
  { id: "deactivated-users-admin", area: "organization", label: "Deactivated users", visible: isAdmin, load: () => import("./people/Users").then((m) => m.DeactivatedUsers) },
  { id: "bot-list-admin", area: "organization", label: "Bots", visible: isAdmin, load: () => import("./bots/Bots").then((m) => m.AllBots) },
];

/** The sections of an area the person may open. */
export const sectionsOf = (state: State, area: SettingsArea) => SECTIONS.filter((s) => s.area === area && s.visible(state));

/** The section a URL names, or the area's first when it names none the person may open. */
export function sectionFor(state: State, area: SettingsArea, id: string): Section | undefined {
  const shown = sectionsOf(state, area);
  return shown.find((s) => s.id === id) ?? shown[0];
}
