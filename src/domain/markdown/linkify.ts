import { LinkifyIt } from "linkify-it";

/**
 * The one URL finder, shared by the renderer (as markdown-it's linkify) and topic links. Its own module so
 * topic links, which every fetched channel message carries, do not load markdown-it.
 */
export const linkify = new LinkifyIt().set({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: false });
