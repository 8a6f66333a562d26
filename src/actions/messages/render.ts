import { realmOf, type App } from "../../app";
import { hasMetadataAccess } from "../../domain/channel-permissions";
import { loadRenderer, type RenderContext, type RenderResult } from "../../domain/markdown";
import { listSubscribedStreamIds } from "../../store/subscriptions";
import type { UserRow } from "../../store/users";
import { loadDirectory, realmEmojiUrl, type Directory } from "./directory";
import { emptyTopicNameOf, normalizeContent } from "../../domain/topic";
import { badRequest } from "../../errors";
import { uploadPathsIn } from "../../uploads/paths";
import { uploadedImages } from "../uploaded-images";
import { linkifierList } from "../linkifiers";

/** The organization's name for the empty topic (realm_empty_topic_display_name). */
export const emptyTopicName = (app: App): string => emptyTopicNameOf(realmOf(app).settings);

/**
 * The renderer's view of the organization for one sender, over the in-memory directory. Channel
 * links resolve only to channels the sender may know of (their subscriptions are read lazily, only
 * when the content links a channel).
 */
export async function renderContext(app: App, dir: Directory, sender: Pick<UserRow, "id" | "role">, content: string): Promise<RenderContext> {
  const subscribed = content.includes("#**") ? new Set(await listSubscribedStreamIds(app.db, sender.id)) : new Set<number>();
  const images = content.includes("/user_uploads/") ? await uploadedImages(app, uploadPathsIn(content)) : null;
  const linkifiers = await linkifierList(app);
  return {
    linkifiers,
    uploadedImage: images ? (pathId) => images.get(pathId) : undefined,
    usersByName: (name) => dir.activeUsersByName(name),
    userById: (id) => {
      const u = dir.users.get(id);
      return u && u.is_active ? u : undefined;
    },
    groupByName: (name) => dir.groupsByName.get(name),
    streamByName: (name) => {
      const s = dir.streamByName(name);
      if (!s) return undefined;
      const ok = hasMetadataAccess({ user: sender, channel: s, subscribed: subscribed.has(s.id), inGroup: (g) => app.groups.isMember(g, sender.id) });
      return ok ? { id: s.id, name: s.name } : undefined;
    },
    realmEmoji: (name) => {
      const e = dir.emojiByName.get(name);
      return e ? { id: e.id, name: e.name, source_url: realmEmojiUrl(e) } : undefined;
    },
    realmUrl: (app.config.server.external_url || `http://${app.config.server.host}:${app.config.server.port}`).replace(/\/+$/, ""),
    uploadsPathPrefix: "/user_uploads/",
    emptyTopicDisplayName: emptyTopicName(app),
  };
}

/** Renders content for a sender. */
export async function render(app: App, dir: Directory, sender: Pick<UserRow, "id" | "role">, content: string): Promise<RenderResult> {
  const { renderMarkdown } = await loadRenderer();
  return renderMarkdown(content, await renderContext(app, dir, sender, content));
}

/** Whether `content` contains an alert word (case-insensitive, at word boundaries, like Zulip's automaton). */
export function hasAlertWord(contentLower: string, words: string[]): boolean {
  for (const w of words) {
    const lw = w.toLowerCase();
    let at = contentLower.indexOf(lw);
    while (at !== -1) {
      const before = at === 0 ? "" : contentLower[at - 1]!;
      const after = contentLower[at + lw.length] ?? "";
      if (!isWordChar(before) && !isWordChar(after)) return true;
      at = contentLower.indexOf(lw, at + 1);
    }
  }
  return false;
}
const isWordChar = (c: string) => c !== "" && /[\p{L}\p{N}_]/u.test(c);

/** POST /messages/render: the content as Zulip's HTML, rendered for the caller. */
export async function renderMessage(app: App, me: UserRow, content: string): Promise<string> {
  const n = normalizeContent(content, app.config.limits.max_message_length);
  if ("error" in n) throw badRequest(n.error);
  return (await render(app, await loadDirectory(app), me, n.content)).html;
}
