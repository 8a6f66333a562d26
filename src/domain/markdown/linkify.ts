import { LinkifyIt } from "linkify-it";

/**
 * The one URL finder, shared by the renderer (as markdown-it's linkify) and topic links. Its own module so
 * topic links, which every fetched channel message carries, do not load markdown-it.
 */
export const linkify = new LinkifyIt().set({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: false });

/**
 * What any link linkify-it finds must contain: a scheme (http:, https:, ftp:, mailto:, or `//`), a dot
 * (a fuzzy host is `name.tld`, a fuzzy e-mail's host has a dot too), or an e-mail's `@[IPv6:` host.
 * linkify-it 6 runs its fuzzy-link expression on every text, which costs microseconds on each
 * message; most chat lines have none of these and are answered here.
 */
const MAY_LINK = /(?:https?|ftp|mailto):|\/\/|\.|@\[/i;
const fullTest = linkify.test.bind(linkify);
linkify.test = (text: string) => MAY_LINK.test(text) && fullTest(text);
