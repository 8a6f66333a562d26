import { realmOf, type App } from "../../app";
import { listDefaultStreamIds } from "../../store/streams";

/** `default_streams` initial state: the default channels' ids. */
export async function defaultStreamsState(app: App) {
  return { realm_default_streams: await listDefaultStreamIds(app.db, realmOf(app).id) };
}
