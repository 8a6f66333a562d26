// When the owner may import from the web app: the organization has no messages yet, the server can
// switch organizations while it runs, and no other import is under way.
import type { App } from "../../app";
import { swapRefusal } from "../../import/web/swap";
import { countPeoplesMessages, runningImportJob } from "../../store/import-jobs";
import { WELCOME_BOT_EMAIL } from "../join";
import { NOTIFICATION_BOT_EMAIL } from "../messages/notification-bot";
import { liveJob } from "./progress";

/** The automatic messages of a new organization come from these; they do not make it "used". */
export const SYSTEM_BOT_EMAILS = [NOTIFICATION_BOT_EMAIL, WELCOME_BOT_EMAIL];

/** Why an import cannot start now, in the owner's words; null when it can. */
export async function importRefusal(app: App): Promise<string | null> {
  if (!app.host) return "This server cannot switch organizations while it runs; import with `parley import` into a new data folder instead.";
  const layout = swapRefusal(app.config);
  if (layout) return layout;
  if (liveJob(app.config) || (await runningImportJob(app.db))) return "An import is already under way.";
  if ((await countPeoplesMessages(app.db, SYSTEM_BOT_EMAILS)) > 0) {
    return "This organization already has messages: an import is offered only before the first message is sent. Import with `parley import` into a new data folder instead.";
  }
  return null;
}
