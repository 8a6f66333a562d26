/** The icons of writing and reacting (compose tools, drafts, scheduled messages, reactions), drawn like icons.tsx. */
import { icon, type Props } from "./icons";

export const SmileIcon = (p: Props) => icon(<><circle cx="12" cy="12" r="8.5" /><path d="M8.5 14a4.2 4.2 0 0 0 7 0" /><path d="M9.2 9.8h.01M14.8 9.8h.01" stroke-width="2.6" /></>, p);
export const AddReactionIcon = (p: Props) => icon(<><path d="M20.3 12.9A8.5 8.5 0 1 1 11.1 3.6" /><path d="M8.5 14a4.2 4.2 0 0 0 7 0" /><path d="M9.2 9.8h.01M14.8 9.8h.01" stroke-width="2.6" /><path d="M19 2.5v6M16 5.5h6" /></>, p);
export const PaperclipIcon = (p: Props) => icon(<path d="m20 11.5-7.6 7.6a5 5 0 0 1-7.1-7.1l8.3-8.3a3.4 3.4 0 0 1 4.8 4.8l-8.3 8.3a1.7 1.7 0 0 1-2.4-2.4l7.6-7.6" />, p);
export const PencilIcon = (p: Props) => icon(<><path d="M4 20h4L19 9a2.8 2.8 0 0 0-4-4L4 16z" /><path d="m13.5 6.5 4 4" /></>, p);
export const CalendarIcon = (p: Props) => icon(<><rect x="3.5" y="5" width="17" height="15" rx="2" /><path d="M3.5 10h17M8 3v4M16 3v4" /><path d="M12 13.2v3l2 1.2" /></>, p);
export const ChevronDownIcon = (p: Props) => icon(<path d="m6 9 6 6 6-6" />, p);
export const TrashIcon = (p: Props) => icon(<><path d="M4.5 7h15M10 11v6M14 11v6" /><path d="M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4.5h6V7" /></>, p);
export const UploadIcon = (p: Props) => icon(<><path d="M12 15V4M7.5 8.5 12 4l4.5 4.5" /><path d="M4.5 14v4a2 2 0 0 0 2 2h11a2 2 0 0 0 2-2v-4" /></>, p);
export const PollIcon = (p: Props) => icon(<><path d="M5 20V11M12 20V4M19 20v-6" /></>, p);
