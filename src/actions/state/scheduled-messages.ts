import type { App } from "../../app";
import type { UserRow } from "../../store/users";
import { listScheduledMessages } from "../scheduled-messages";

/** `scheduled_messages` initial state: the user's undelivered scheduled messages. */
export async function scheduledMessagesState(app: App, me: UserRow) {
  return { scheduled_messages: await listScheduledMessages(app, me) };
}
