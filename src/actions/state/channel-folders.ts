import type { App } from "../../app";
import { listFolders } from "../channel-folders";

/** `channel_folders` initial state: every folder, archived ones included. */
export async function channelFoldersState(app: App) {
  return { channel_folders: await listFolders(app, true) };
}
