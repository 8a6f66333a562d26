/** The tab's icon and title carry the unread count, so a person sees it from another tab. */

let base: HTMLImageElement | null = null;
let shown = -1;

function link(): HTMLLinkElement {
  let el = document.querySelector<HTMLLinkElement>("link[rel=icon]");
  if (!el) {
    el = document.createElement("link");
    el.rel = "icon";
    document.head.append(el);
  }
  return el;
}

/** Draws the page's own icon with a red count in its corner (none at zero). */
export function showUnreadInFavicon(count: number): void {
  if (count === shown) return;
  shown = count;
  const el = link();
  base ??= Object.assign(new Image(), { src: el.href });
  const draw = () => {
    if (shown !== count) return;
    const canvas = Object.assign(document.createElement("canvas"), { width: 64, height: 64 });
    const g = canvas.getContext("2d");
    if (!g) return;
    g.drawImage(base!, 0, 0, 64, 64);
    if (count > 0) {
      const text = count > 99 ? "99+" : String(count);
      g.fillStyle = "#d6453d";
      g.beginPath();
      g.roundRect(64 - (text.length > 1 ? 44 : 34), 0, text.length > 1 ? 44 : 34, 34, 17);
      g.fill();
      g.fillStyle = "#fff";
      g.font = `bold ${text.length > 2 ? 20 : 26}px system-ui, sans-serif`;
      g.textAlign = "center";
      g.textBaseline = "middle";
      g.fillText(text, 64 - (text.length > 1 ? 22 : 17), 18);
    }
    el.type = "image/png";
    el.href = canvas.toDataURL("image/png");
  };
  if (base.complete && base.naturalWidth) draw();
  else base.addEventListener("load", draw, { once: true });
}

export function showTitle(title: string, realmName: string, count: number): void {
  document.title = `${count > 0 ? `(${count}) ` : ""}${title} · ${realmName}`;
}
