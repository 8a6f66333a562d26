import { realmOf, type App } from "../../app";
import { badNarrow, type NarrowTerm } from "../../domain/narrow";
import { unauthorized } from "../../errors";
import type { ResolvedNarrow, Term } from "../../store/narrow";
import { findMessage, type MessageRow } from "../../store/messages";
import { FLAG } from "../../domain/flags";
import type { Directory } from "./directory";
import { readableBySpectators } from "../../domain/channel-permissions";
import { contentTerm } from "./narrow-terms";
import { ensureSearchIndexed } from "./search-index";

/** What a spectator may narrow by (Zulip's is_spectator_compatible; `near` only places the anchor). */
const SPECTATOR_OPERATORS = new Set(["channels", "channel", "topic", "sender", "has", "search", "near", "id"]);

/**
 * The public-access option: someone without an account reads the organization's web-public channels.
 * As Zulip's GET /messages, the narrow must say so with `channels:web-public` (so a client whose
 * credentials got lost is told to log in rather than shown less), may use only the operators above,
 * and the organization must allow spectators. Anything else is the usual 401.
 */
export async function resolveSpectatorNarrow(app: App, d: Directory, input: NarrowTerm[]): Promise<{ narrow: ResolvedNarrow; searchWords: string[] | null }> {
  checkSpectatorsAllowed(app);
  if (!input.some((t) => t.operator === "channels" && t.operand === "web-public" && !t.negated)) throw unauthorized();
  if (input.some((t) => !SPECTATOR_OPERATORS.has(t.operator))) throw unauthorized();
  const webPublic = webPublicChannelIds(app, d);
  const out: Term[] = [];
  let searchWords: string[] | null = null;
  for (const t of input) {
    const neg = t.negated;
    const o = t.operand;
    switch (t.operator) {
      case "channels":
        if (o !== "web-public" && o !== "public") throw badNarrow(`unknown channels operand ${o}`);
        break; // every channel a spectator reads is web-public
      case "channel": {
        const stream = typeof o === "number" ? d.streams.get(o) : d.streamByName(String(o));
        if (!stream || !webPublic.includes(stream.id)) throw badNarrow(`unknown web-public channel ${o}`);
        out.push({ k: "streams", ids: [stream.id], neg });
        break;
      }
      case "sender": {
        const u = typeof o === "number" ? d.users.get(o) : d.userByEmail(String(o));
        if (!u) throw badNarrow(`unknown user ${o}`);
        out.push({ k: "sender", id: u.id, neg });
        break;
      }
      default: {
        const c = contentTerm(app, t); // topic, has, id, search (near only places the anchor)
        if (c) out.push(c.term);
        if (c?.searchWords) searchWords = [...(searchWords ?? []), ...c.searchWords];
      }
    }
  }
  if (out.some((t) => t.k === "search")) await ensureSearchIndexed(app, out);
  // user 0 has no message rows: every message is read from the web-public channels' history
  return { narrow: { userId: 0, terms: out, historyStreams: webPublic }, searchWords };
}

/** 401 unless the organization lets people without an account read its web-public channels. */
export function checkSpectatorsAllowed(app: App): void {
  const settings = realmOf(app).settings;
  if (!settings.enable_spectator_access || !settings.web_public_streams_enabled) throw unauthorized();
}

/** The channels spectators read. */
export const webPublicChannelIds = (app: App, d: Directory) =>
  [...d.streams.values()].filter((s) => s.realm_id === realmOf(app).id && readableBySpectators(s)).map((s) => s.id);

/**
 * GET /messages/{id} for a spectator (Zulip's access_web_public_message): a message of a web-public
 * channel, read. Any other id is the 401 a request without credentials gets, so nothing is learned.
 */
export async function accessWebPublicMessage(app: App, d: Directory, messageId: number): Promise<{ row: MessageRow; flags: number }> {
  checkSpectatorsAllowed(app);
  const row = await findMessage(app.db, messageId);
  if (!row || row.stream_id === null || !webPublicChannelIds(app, d).includes(row.stream_id)) throw unauthorized();
  return { row, flags: FLAG.read };
}
