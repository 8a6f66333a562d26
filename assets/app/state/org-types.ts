/**
 * The organization's things the settings screens read beside the conversation state: bots, default
 * channels, channel folders and custom profile fields (from /register, kept current by their events).
 * Kept apart from types.ts so that file stays the conversation's.
 */

/** A bot as realm_bots gives it: every bot for administrators, one's own otherwise. */
export interface Bot {
  user_id: number;
  full_name: string;
  email: string;
  /** 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded */
  bot_type: number;
  is_active: boolean;
  api_key: string;
  owner_id: number | null;
  avatar_url: string | null;
}

export interface ChannelFolder {
  id: number;
  name: string;
  description: string;
  is_archived: boolean;
  /** its place in the organization's order (PATCH /channel_folders); absent in a state made for a test */
  order?: number;
}

/** A custom profile field's definition (the values are in each person's profile_data). */
export interface ProfileField {
  id: number;
  name: string;
  type: number;
  hint: string;
  /** JSON: the choices of a list field */
  field_data: string;
  order: number;
  required: boolean;
  /** whether people may fill it in themselves (administrators always may) */
  editable_by_user: boolean;
}

/** A person's value of one custom profile field. */
export interface ProfileValue {
  value: string;
  rendered_value?: string;
}
