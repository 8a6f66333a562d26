export type { Linkifier, RenderContext, RenderResult, UploadedImageInfo } from "./types";
export { topicLinks, type TopicLink } from "./topic-links";

/**
 * The renderer (markdown-it and Parley's rules) is loaded on first use: a server that has not rendered a
 * message yet neither reads its code from the executable nor decodes markdown-it's entity tables.
 */
let renderer: Promise<typeof import("./render")> | null = null;
export const loadRenderer = () => (renderer ??= import("./render"));
