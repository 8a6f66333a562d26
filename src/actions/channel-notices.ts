import type { App } from "../app";
import type { StreamRow } from "../store/streams";
import type { UserRow } from "../store/users";

/**
 * Notification-bot messages about channels (the "channel events" topic notice when a channel is
 * created, the announcement when `announce` is set, "X subscribed you to ..." DMs).
 *
 * Sending a message belongs to the messages area (sendMessage in src/actions/messages/), which does
 * not exist yet: until it does, no notice is posted and this answers false ("no messages sent").
 */
export async function notifyNewChannels(
  _app: App,
  _actor: UserRow,
  _what: { created: StreamRow[]; added: { user: UserRow; stream: StreamRow }[]; announce: boolean },
): Promise<boolean> {
  return false;
}
