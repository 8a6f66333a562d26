/** The bar across the top: the organization, the sidebar toggles on small screens, the person's menu. */
import { updateSetting } from "../api/calls";
import { hrefOf, navigate } from "../nav/router";
import { canInviteAnyhow } from "../state/permissions";
import { sectionsOf } from "./settings/sections";
import { me, realm, settings, state, users } from "../state/store";
import { BellIcon, BuildingIcon, GearIcon, InviteIcon, KeyboardIcon, LockIcon, LogoutIcon, MenuIcon, MonitorIcon, MoonIcon, PeopleIcon, SunIcon } from "./icons";
import { openInviteDialog, openPasswordDialog } from "./dialog-openers";
import { SearchBar } from "./SearchBar";
import { openKeyboardHelp } from "../keyboard/shortcuts";
import { MenuButton, type MenuItem } from "./Menu";
import { attempt } from "./menus";
import { Avatar } from "./people-bits";

/** Zulip's color_scheme values */
export const SCHEME = { automatic: 1, dark: 2, light: 3 } as const;

function personalItems(): MenuItem[] {
  const scheme = settings.value.color_scheme;
  const choose = (value: number) => attempt("change the theme", () => updateSetting("color_scheme", value));
  return [
    ...(canInviteAnyhow(state.value!) ? [{ label: "Invite people", icon: <InviteIcon size={16} />, onSelect: openInviteDialog }] : []),
    { label: "Follow the system's theme", icon: <MonitorIcon size={16} />, checked: scheme === SCHEME.automatic, onSelect: choose(SCHEME.automatic) },
    { label: "Light theme", icon: <SunIcon size={16} />, checked: scheme === SCHEME.light, onSelect: choose(SCHEME.light) },
    { label: "Dark theme", icon: <MoonIcon size={16} />, checked: scheme === SCHEME.dark, onSelect: choose(SCHEME.dark) },
    { label: "Personal settings", icon: <GearIcon size={16} />, onSelect: () => navigate({ kind: "settings", area: "personal", section: "" }) },
    ...(sectionsOf(state.value!, "organization").length ? [{ label: "Organization settings", icon: <BuildingIcon size={16} />, onSelect: () => navigate({ kind: "settings", area: "organization", section: "" }) }] : []),
    { label: "User groups", icon: <PeopleIcon size={16} />, onSelect: () => navigate({ kind: "groups", tab: "your" }) },
    { label: "Notification settings", icon: <BellIcon size={16} />, onSelect: () => navigate({ kind: "settings", area: "personal", section: "notifications" }) },
    { label: "Change password", icon: <LockIcon size={16} />, onSelect: openPasswordDialog },
    { label: "Keyboard shortcuts", icon: <KeyboardIcon size={16} />, onSelect: openKeyboardHelp },
    { label: "Log out", icon: <LogoutIcon size={16} />, onSelect: () => document.querySelector<HTMLFormElement>("#logout-form")?.submit() },
  ];
}



interface Props {
  inert?: boolean;
  leftOpen: boolean;
  rightOpen: boolean;
  toggleLeft(): void;
  toggleRight(): void;
}

export function TopBar({ inert, leftOpen, rightOpen, toggleLeft, toggleRight }: Props) {
  const myName = users.value[me.value]?.full_name ?? "";
  return (
    <header class="top-bar" inert={inert}>
      <button type="button" class="icon-button toggle-left" aria-label="Channels and views" aria-expanded={leftOpen} aria-controls="left-sidebar" onClick={toggleLeft}>
        <MenuIcon />
      </button>
      <a class="brand" href={hrefOf({ kind: "inbox" })}>
        <svg class="brand-mark" viewBox="0 0 32 32" width="26" height="26" aria-hidden="true">
          <rect width="32" height="32" rx="8" />
          <path d="M9 10.5A3.5 3.5 0 0 1 12.5 7h9A3.5 3.5 0 0 1 25 10.5v6a3.5 3.5 0 0 1-3.5 3.5H16l-4.5 4v-4A2.5 2.5 0 0 1 9 17.5z" />
        </svg>
        <span class="brand-name">{realm.value.name}</span>
      </a>
      <SearchBar />
      <button type="button" class="icon-button toggle-right" aria-label="People" aria-expanded={rightOpen} aria-controls="right-sidebar" onClick={toggleRight}>
        <PeopleIcon />
      </button>
      <MenuButton label={`Personal menu for ${myName}`} items={personalItems} class="personal-menu" alignEnd>
        <Avatar userId={me.value} size={30} />
      </MenuButton>
      <form id="logout-form" method="post" action="/logout" hidden />
    </header>
  );
}
