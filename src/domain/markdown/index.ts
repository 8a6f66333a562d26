export type { Linkifier, RenderContext, RenderResult, UploadedImageInfo } from "./types";
export { topicLinks, type TopicLink } from "./topic-links";

/**
 * The renderer (markdown-it and Parley's rules) is loaded on first use: a server that has not rendered
 * a message yet does not carry it (~2 MiB resident, and markdown-it decodes its entity tables at load).
 */
let renderer: Promise<typeof import("./render")> | null = null;
export const loadRenderer = () => (renderer ??= import("./render"));
