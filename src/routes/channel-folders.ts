import { Elysia, t } from "elysia";
import type { App } from "../app";
import { createChannelFolder, listFolders, MAX_FOLDER_DESCRIPTION_LENGTH, MAX_FOLDER_NAME_LENGTH, reorderFolders, updateFolder } from "../actions/channel-folders";
import { MAX_LIST_ITEMS, pathInt } from "../http/params";
import { zulip } from "../http/plugin";

const Name = t.String({ maxLength: MAX_FOLDER_NAME_LENGTH });
const Description = t.String({ maxLength: MAX_FOLDER_DESCRIPTION_LENGTH });

const FolderCreateArgs = t.Object({ name: Name, description: Description });
const FolderListArgs = t.Object({ include_archived: t.Boolean({ default: false }) });
const FolderReorderArgs = t.Object({ order: t.Array(t.Integer(), { maxItems: MAX_LIST_ITEMS }) });
const FolderUpdateArgs = t.Object({ name: t.Optional(Name), description: t.Optional(Description), is_archived: t.Optional(t.Boolean()) });

export const channelFolderRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .post(
      "/channel_folders/create",
      async ({ args, me }) => {
        const p = args.read(FolderCreateArgs);
        return args.success({ channel_folder_id: await createChannelFolder(app, me, p.name, p.description) });
      },
      { auth: true },
    )
    .get(
      "/channel_folders",
      async ({ args }) => {
        const p = args.read(FolderListArgs);
        return args.success({ channel_folders: await listFolders(app, p.include_archived) });
      },
      { auth: true },
    )
    .patch(
      "/channel_folders",
      async ({ args, me }) => {
        const p = args.read(FolderReorderArgs);
        await reorderFolders(app, me, p.order);
        return args.success();
      },
      { auth: true },
    )
    .patch(
      "/channel_folders/:channel_folder_id",
      async ({ args, me, params }) => {
        const id = pathInt(params.channel_folder_id, "channel_folder_id");
        const p = args.read(FolderUpdateArgs);
        await updateFolder(app, me, id, { name: p.name, description: p.description, isArchived: p.is_archived });
        return args.success();
      },
      { auth: true },
    );
