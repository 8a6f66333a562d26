import { realmOf, type App } from "../../app";
import { channelAccess } from "../channel-access";
import { formatStreams } from "../channel-data";
import { hasMetadataAccess } from "../../domain/channel-permissions";
import { listStreams } from "../../store/streams";
import { listSubscribedStreamIds } from "../../store/subscriptions";
import type { UserRow } from "../../store/users";
import type { StateOptions } from "./options";

/** `stream` initial state: every channel the user may know of (archived ones with the capability). */
export async function streamState(app: App, me: UserRow, opts: StateOptions) {
  // spectators never see archived channels (Zulip's get_web_public_streams)
  const withArchived = Boolean(opts.clientCapabilities.archived_channels) && !opts.spectator;
  const subscribed = new Set(await listSubscribedStreamIds(app.db, me.id));
  const streams = (await listStreams(app.db, realmOf(app).id))
    .filter((s) => withArchived || !s.is_archived)
    .filter((s) => hasMetadataAccess(channelAccess(app, me, s, subscribed.has(s.id))));
  return { streams: await formatStreams(app, app.db, streams) };
}
