/** Small line icons (24-unit grid, currentColor), drawn inline so they follow the theme. */
import type { JSX } from "preact";

export type Props = { size?: number; class?: string };

export function icon(paths: JSX.Element, { size = 18, class: cls }: Props) {
  return (
    <svg class={`icon ${cls ?? ""}`} width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">
      {paths}
    </svg>
  );
}

export const HashIcon = (p: Props) => icon(<path d="M5 9h14M4 15h14M10 4 8 20M16 4l-2 16" />, p);
export const LockIcon = (p: Props) => icon(<><rect x="5" y="11" width="14" height="9" rx="2" /><path d="M8 11V8a4 4 0 0 1 8 0v3" /></>, p);
export const InboxIcon = (p: Props) => icon(<><path d="M4 13h4l2 3h4l2-3h4" /><path d="M5.5 5h13L21 13v5a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-5z" /></>, p);
export const ClockIcon = (p: Props) => icon(<><circle cx="12" cy="12" r="8.5" /><path d="M12 7.5V12l3 2" /></>, p);
export const FeedIcon = (p: Props) => icon(<><path d="M4 6h16M4 12h16M4 18h10" /></>, p);
export const AtIcon = (p: Props) => icon(<><circle cx="12" cy="12" r="3.5" /><path d="M15.5 12v1.5a2.5 2.5 0 0 0 5 0V12a8.5 8.5 0 1 0-3.4 6.8" /></>, p);
export const StarIcon = (p: Props) => icon(<path d="m12 3.5 2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z" />, p);
export const ChatIcon = (p: Props) => icon(<path d="M5 5h14a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1h-8l-4 3v-3H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1z" />, p);
export const MenuIcon = (p: Props) => icon(<path d="M4 7h16M4 12h16M4 17h16" />, p);
export const PeopleIcon = (p: Props) => icon(<><circle cx="9" cy="8" r="3.2" /><path d="M3.5 19a5.5 5.5 0 0 1 11 0" /><path d="M16 5.2a3 3 0 0 1 0 5.6M17.5 14a5 5 0 0 1 3 5" /></>, p);
export const MoreIcon = (p: Props) => icon(<><circle cx="12" cy="5.5" r="1" /><circle cx="12" cy="12" r="1" /><circle cx="12" cy="18.5" r="1" /></>, p);
export const SendIcon = (p: Props) => icon(<path d="M4 12 20 4l-6 16-2.5-6.5z M11.5 13.5 20 4" />, p);
export const CheckIcon = (p: Props) => icon(<path d="m5 12.5 4.5 4.5L19 7.5" />, p);
export const CloseIcon = (p: Props) => icon(<path d="M6 6l12 12M18 6 6 18" />, p);
export const MuteIcon = (p: Props) => icon(<><path d="M9 18h6M6 15V10a6 6 0 0 1 9.5-4.9M18 10v5l1.5 2H7" /><path d="M4 4l16 16" /></>, p);
export const FollowIcon = (p: Props) => icon(<><path d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z" /><circle cx="12" cy="12" r="3" /></>, p);
export const SunIcon = (p: Props) => icon(<><circle cx="12" cy="12" r="4" /><path d="M12 2.5v2M12 19.5v2M4.6 4.6 6 6M18 18l1.4 1.4M2.5 12h2M19.5 12h2M4.6 19.4 6 18M18 6l1.4-1.4" /></>, p);
export const MoonIcon = (p: Props) => icon(<path d="M19.5 14.5A8 8 0 0 1 9.5 4.5a8 8 0 1 0 10 10z" />, p);
export const MonitorIcon = (p: Props) => icon(<><rect x="3" y="4.5" width="18" height="12" rx="2" /><path d="M8.5 20h7M12 16.5V20" /></>, p);
export const LogoutIcon = (p: Props) => icon(<><path d="M14 4h4a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-4" /><path d="M10 16l-4-4 4-4M6 12h10" /></>, p);
export const ChevronIcon = (p: Props) => icon(<path d="m9 6 6 6-6 6" />, p);
export const UnreadIcon = (p: Props) => icon(<><path d="M4 6h16v12H4z" /><path d="m4 7 8 6 8-6" /></>, p);
export const SearchIcon = (p: Props) => icon(<><circle cx="10.5" cy="10.5" r="6" /><path d="m15 15 5 5" /></>, p);
export const EditIcon = (p: Props) => icon(<path d="M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4" />, p);
export const TrashIcon = (p: Props) => icon(<><path d="M4 7h16M9.5 7V4.5h5V7M6.5 7l1 13h9l1-13" /><path d="M10 11v5M14 11v5" /></>, p);
export const MoveIcon = (p: Props) => icon(<path d="M4 12h16M16 8l4 4-4 4M8 8l-4 4 4 4" />, p);
export const LinkIcon = (p: Props) => icon(<><path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" /><path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" /></>, p);
export const QuoteIcon = (p: Props) => icon(<path d="M5 17c2-1 3-3 3-6H5V6h5v5c0 4-2 6-5 7zM14 17c2-1 3-3 3-6h-3V6h5v5c0 4-2 6-5 7z" />, p);
export const ReplyIcon = (p: Props) => icon(<path d="M10 8 5 12.5l5 4.5M5.5 12.5H14a5 5 0 0 1 5 5V19" />, p);
export const HistoryIcon = (p: Props) => icon(<><path d="M4 12a8 8 0 1 0 2.4-5.7L4 8.5" /><path d="M4 4v4.5h4.5M12 8v4.5l3 1.5" /></>, p);
export const BellIcon = (p: Props) => icon(<><path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15z" /><path d="M10 20.5a2 2 0 0 0 4 0" /></>, p);
export const KeyboardIcon = (p: Props) => icon(<><rect x="3" y="6" width="18" height="12" rx="2" /><path d="M7 10h.01M11 10h.01M15 10h.01M7 14h10" /></>, p);
export const InviteIcon = (p: Props) => icon(<><circle cx="10" cy="8" r="3.5" /><path d="M3.5 19.5a6.5 6.5 0 0 1 11.5-4.2M18 13v7M14.5 16.5h7" /></>, p);
export const ArrowLeftIcon = (p: Props) => icon(<path d="M19 12H5m6-6-6 6 6 6" />, p);
export const GearIcon = (p: Props) => icon(<><circle cx="12" cy="12" r="3" /><path d="M12 2.5v3M12 18.5v3M4.2 6.5l2.6 1.5M17.2 16l2.6 1.5M4.2 17.5 6.8 16M17.2 8l2.6-1.5" /></>, p);
export const BuildingIcon = (p: Props) => icon(<><rect x="5" y="3.5" width="14" height="17" rx="1.5" /><path d="M9 8h2M13 8h2M9 12h2M13 12h2M10 20.5v-4h4v4" /></>, p);
export const InfoIcon = (p: Props) => icon(<><circle cx="12" cy="12" r="9" /><path d="M12 11v6M12 7.5v.5" /></>, p);
