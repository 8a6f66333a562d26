// users.json to Parley people, by Zulip's slack.py rules: owners and the primary owner become
// owners, admins administrators, restricted and ultra-restricted people guests (over any other
// role), deleted people deactivated, bots and Slackbot bots; names, emails and time zones.
import { ROLE } from "../../domain/roles";
import type { ImportPerson } from "../common/writer";

export interface SlackUser {
  id: string;
  name?: string;
  real_name?: string;
  deleted?: boolean;
  is_bot?: boolean;
  is_owner?: boolean;
  is_primary_owner?: boolean;
  is_admin?: boolean;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
  tz?: string | null;
  team_id?: string;
  profile?: {
    email?: string;
    real_name?: string;
    real_name_normalized?: string;
    first_name?: string;
    bot_id?: string;
    display_name?: string;
    avatar_hash?: string;
    image_72?: string;
    image_192?: string;
    image_512?: string;
    image_1024?: string;
    image_original?: string;
  };
}

/** Zulip's get_user_full_name: a live person's real name (or handle); a deleted one's handle. */
export function slackFullName(u: SlackUser): string {
  if (u.deleted === false) return u.real_name || u.name || u.id;
  if (u.deleted === undefined) return u.real_name || u.name || u.id;
  return u.name || u.real_name || u.id;
}

const isSlackbot = (u: SlackUser) => slackFullName(u).toLowerCase() === "slackbot";

/** Zulip's get_user_timezone: the Slack time zone when it is a named zone, else America/New_York. */
export const slackTimezone = (u: SlackUser) => (u.tz && u.tz.includes("/") ? u.tz : "America/New_York");

export function slackRole(u: SlackUser): number {
  let role: number = ROLE.member;
  if (u.is_owner || u.is_primary_owner) role = ROLE.owner;
  else if (u.is_admin) role = ROLE.administrator;
  if (u.is_restricted || u.is_ultra_restricted) role = ROLE.guest;
  return role;
}

/**
 * Zulip's SlackBotEmail: a bot's address is "<name without 'Bot' and spaces>-bot@<domain>", numbered
 * ("-2", "-3") on a repeat; one counter for the bots of users.json and the integration bots.
 */
export class BotEmails {
  private readonly counts = new Map<string, number>();
  constructor(private readonly domain: string) {}

  next(name: string): string {
    const base = name.replaceAll("Bot", "").replaceAll(" ", "").toLowerCase() + "-bot";
    const n = (this.counts.get(base) ?? 0) + 1;
    this.counts.set(base, n);
    return n === 1 ? `${base}@${this.domain}` : `${base}-${n}@${this.domain}`;
  }
}

/**
 * Zulip's get_user_email: the profile's email; for a bot without one its BotEmails address; for
 * Slackbot "imported-slackbot-bot@<domain>". Null: no address known.
 */
export function slackEmails(users: SlackUser[], domain: string, bots = new BotEmails(domain)): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const u of users) {
    const profile = u.profile ?? {};
    if (profile.email) out.set(u.id, profile.email);
    else if (profile.bot_id) out.set(u.id, bots.next(profile.real_name_normalized ?? profile.first_name ?? u.name ?? u.id));
    else if (isSlackbot(u)) out.set(u.id, `imported-slackbot-bot@${domain}`);
    else out.set(u.id, null);
  }
  return out;
}

export function slackPerson(u: SlackUser, email: string, now: number): ImportPerson {
  return {
    key: u.id,
    email,
    fullName: slackFullName(u),
    role: slackRole(u),
    active: !u.deleted,
    bot: isSlackbot(u) || Boolean(u.is_bot),
    timezone: slackTimezone(u),
    dateJoined: now,
  };
}

/** Who owns the new organization: the primary owner, else an owner, else an administrator, else the first active person. */
export function pickOwner(users: SlackUser[]): SlackUser | undefined {
  const people = users.filter((u) => !u.deleted && !u.is_bot && !isSlackbot(u) && u.profile?.email);
  return (
    people.find((u) => u.is_primary_owner) ??
    people.find((u) => u.is_owner) ??
    people.find((u) => u.is_admin) ??
    people.find((u) => !u.is_restricted && !u.is_ultra_restricted) ??
    people[0]
  );
}
