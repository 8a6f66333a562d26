// Integration bots: they post with a bot_id and no user, and users.json does not list them. Like
// Zulip's import, each becomes a bot person: with the token, named (and pictured) as Slack's bots.info
// describes it, inactive when Slack says it was deleted, and "Deleted Slack Bot B…" (inactive) when
// Slack no longer knows it; without the token, named as its messages show it.
import type { Downloader } from "../common/download";
import type { ImportPerson, ImportWriter } from "../common/writer";
import type { AvatarJob } from "./avatars";
import type { SlackMessage } from "./messages";
import type { BotEmails } from "./people";

interface BotInfo {
  ok?: boolean;
  error?: string;
  bot?: { id?: string; name?: string; deleted?: boolean; icons?: { image_72?: string } };
}

export interface IntegrationBots {
  /** Parley ids of the bots made so far, by Slack bot_id */
  ids: Map<string, number>;
  /** Makes the bots of these messages that do not exist yet; returns their avatars to fetch. */
  add(messages: SlackMessage[]): Promise<AvatarJob[]>;
}

/** Zulip's is_integration_bot_message. */
export const isIntegrationBotMessage = (m: SlackMessage) => m.subtype === "bot_message" && !m.user && Boolean(m.bot_id);

export function integrationBots(
  writer: ImportWriter,
  api: { downloader: Downloader; base: string } | null,
  known: (slackId: string) => boolean,
  emails: BotEmails,
  now: number,
): IntegrationBots {
  const ids = new Map<string, number>();
  return {
    ids,
    async add(messages) {
      const fresh = new Map<string, SlackMessage>();
      for (const m of messages) if (isIntegrationBotMessage(m) && !known(m.bot_id!) && !ids.has(m.bot_id!) && !fresh.has(m.bot_id!)) fresh.set(m.bot_id!, m);
      if (!fresh.size) return [];
      const people: ImportPerson[] = [];
      const avatars: { key: string; url: string }[] = [];
      for (const [botId, m] of fresh) {
        const info = api ? await botsInfo(api, botId) : undefined;
        const shown = m.bot_profile?.name ?? m.username;
        let name: string;
        let active: boolean;
        if (info === null || (info === undefined && !shown)) {
          name = `Deleted Slack Bot ${botId}`;
          active = false;
        } else if (info) {
          name = info.name ?? shown ?? `Deleted Slack Bot ${botId}`;
          active = !info.deleted;
          // Zulip: the 72-pixel icon, the best Slack gives for these bots
          if (info.icons?.image_72) avatars.push({ key: botId, url: info.icons.image_72 });
        } else {
          name = shown!;
          active = true;
        }
        people.push({ key: botId, email: emails.next(name), fullName: name, role: 400, active, bot: true, timezone: "", dateJoined: now });
      }
      const made = await writer.addPeople(people);
      people.forEach((p, i) => ids.set(p.key, made[i]!));
      return avatars.map((a) => ({ userId: ids.get(a.key)!, url: a.url, where: `bots.info: ${a.key}` }));
    },
  };
}

/**
 * Slack's bots.info for one bot: its record, null when Slack answers bot_not_found (Zulip's deleted
 * placeholder), undefined when it could not be asked (then the messages' name is used).
 */
async function botsInfo(api: { downloader: Downloader; base: string }, botId: string): Promise<BotInfo["bot"] | null | undefined> {
  try {
    const got = await api.downloader.fetch(`${api.base}/bots.info?bot=${encodeURIComponent(botId)}`);
    const body = JSON.parse(await Bun.file(got.path).text()) as BotInfo;
    if (body.ok && body.bot) return body.bot;
    return body.error === "bot_not_found" ? null : undefined;
  } catch {
    return undefined;
  }
}
