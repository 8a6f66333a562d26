/**
 * Finishing a message's server-rendered HTML once it is in the page, as Zulip's web app does
 * (rendered_markdown.ts): mentions of the reader highlighted (`user-mention-me`), names kept current,
 * global times in the reader's format, links to other
 * sites opened in a new tab, images loaded lazily, code blocks coloured. Emoji are drawn apart, in the
 * person's emoji set (lib/emoji-set.ts drawMessageEmoji), since that can change while the HTML stays.
 */
import { formatTime } from "./time";
import { highlightCodeBlocks } from "./highlight";

export interface RenderContext {
  me: number;
  twentyFourHour: boolean;
  nameOf(userId: number): string | undefined;
  inGroup(groupId: number): boolean;
}

const dayTime = new Map<boolean, Intl.DateTimeFormat>();
function formatGlobalTime(iso: string, twentyFourHour: boolean): string | null {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  let f = dayTime.get(twentyFourHour);
  if (!f) dayTime.set(twentyFourHour, (f = new Intl.DateTimeFormat(undefined, { weekday: "short", month: "short", day: "numeric", year: "numeric" })));
  return `${f.format(t)}, ${formatTime(t / 1000, twentyFourHour)}`;
}

function imageName(img: HTMLImageElement): string {
  const link = img.closest<HTMLAnchorElement>(".message_inline_image a, .message_embed a");
  if (!link) return "";
  const last = link.getAttribute("href")?.split(/[?#]/)[0]?.split("/").pop() ?? "";
  let file = last;
  try {
    file = decodeURIComponent(last);
  } catch {
    // a malformed escape: the name as it is written
  }
  return link.title || file || "Image";
}

/**
 * Whether server HTML has anything to finish: plain paragraphs and formatting (most messages) have no
 * class, link, image or time, and are left as they are without querying the DOM.
 */
export const needsFinishing = (html: string) => /class=|<a |<img|<time/.test(html);

export function finishRendering(root: HTMLElement, ctx: RenderContext): void {
  for (const el of root.querySelectorAll<HTMLElement>(".user-mention[data-user-id]")) {
    const id = el.dataset.userId!;
    const silent = el.classList.contains("silent");
    if (!silent && (id === "*" || Number(id) === ctx.me)) el.classList.add("user-mention-me");
    const name = id === "*" ? undefined : ctx.nameOf(Number(id));
    if (name) el.textContent = silent ? name : `@${name}`;
  }
  for (const el of root.querySelectorAll<HTMLElement>(".topic-mention:not(.silent)")) el.classList.add("user-mention-me");
  for (const el of root.querySelectorAll<HTMLElement>(".user-group-mention[data-user-group-id]")) {
    if (!el.classList.contains("silent") && ctx.inGroup(Number(el.dataset.userGroupId))) el.classList.add("user-mention-me");
  }
  for (const el of root.querySelectorAll<HTMLTimeElement>("time[datetime]")) {
    const text = formatGlobalTime(el.dateTime, ctx.twentyFourHour);
    if (text) {
      el.title = el.textContent ?? "";
      el.textContent = text;
    }
  }
  for (const a of root.querySelectorAll<HTMLAnchorElement>("a[href]")) {
    const href = a.getAttribute("href")!;
    if (href.startsWith("#")) continue;
    const url = new URL(href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith("/user_uploads/")) {
      a.target = "_blank";
      a.rel = "noopener noreferrer";
    }
  }
  for (const img of root.querySelectorAll<HTMLImageElement>("img")) {
    img.loading = "lazy";
    // the server gives inline images no text: name them by their link's title or file name
    if (!img.hasAttribute("alt")) img.alt = imageName(img);
    // a thumbnail still being made: the server names Zulip's spinner image; the stylesheet draws one instead
    if (img.classList.contains("image-loading-placeholder") && img.getAttribute("src")?.startsWith("/static/images/")) img.removeAttribute("src");
  }
  for (const spoiler of root.querySelectorAll<HTMLElement>(".spoiler-header")) {
    spoiler.setAttribute("role", "button");
    spoiler.tabIndex = 0;
    spoiler.setAttribute("aria-expanded", "false");
  }
  highlightCodeBlocks(root);
}

/** Opens or closes a spoiler from its header (clicked, or Enter/Space on it). */
export function toggleSpoiler(header: HTMLElement): void {
  const block = header.closest(".spoiler-block");
  if (!block) return;
  const open = block.classList.toggle("spoiler-revealed");
  header.setAttribute("aria-expanded", String(open));
  block.querySelector(".spoiler-content")?.setAttribute("aria-hidden", String(!open));
}
