import { LinkifyIt } from "linkify-it";

/**
 * The one URL finder, shared by the renderer (as markdown-it's linkify) and topic links. Its own module so
 * topic links, which every fetched channel message carries, do not load markdown-it.
 */
export const linkify = new LinkifyIt().set({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: false });

/**
 * What any link linkify-it finds must contain: a scheme (http:, https:, ftp:, mailto:, or `//`), a dot
 * followed by a letter or digit (a fuzzy host is `name.tld`, a fuzzy e-mail's host has one too), or an
 * e-mail's `@[IPv6:` host. linkify-it 6 runs its fuzzy-link expression on every text, which costs tens
 * of microseconds on a line with a full stop ("to branch main." of every webhook's push); most chat
 * lines have none of these and are answered here.
 */
const MAY_LINK = /(?:https?|ftp|mailto):|\/\/|\.[\p{L}\p{N}]|@\[/iu;
/**
 * A well-formed inline link to an http(s) URL: markdown-it makes it a link whatever its place (no
 * backslash that could escape a bracket, no space or parenthesis in the target), and linkify skips
 * what is inside links. markdown-it first asks about a whole paragraph, link targets included, so a
 * paragraph whose only URLs are link targets (a push's commit list) would pay the full test for them.
 */
const INLINE_LINK = /(?<!\\)\[[^[\]\\\n]*\]\(https?:\/\/[^()\s\\]*\)/g;
const fullTest = linkify.test.bind(linkify);
linkify.test = (text: string) => MAY_LINK.test(text) && (!text.includes("](") || MAY_LINK.test(text.replace(INLINE_LINK, " "))) && fullTest(text);
