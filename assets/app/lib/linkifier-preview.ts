/**
 * A linkifier tried on a sample text in the browser, before it is saved: the same matching the server
 * applies when it renders a message (src/domain/markdown/linkifiers.ts: a Python-style pattern made a JS
 * RegExp, bounded like Zulip's, the URL template expanded per RFC 6570 level 2, unsafe URLs left as
 * text). The browser cannot import the server's code, so this small copy is kept to the same tests.
 */

export type PreviewPart = { text: string; url?: string };
export type Preview = { parts: PreviewPart[] } | { error: string };

const SAFE_SCHEMES = new Set(["http", "https", "ftp", "mailto", "tel", "sms"]);
const isSafeHref = (href: string) => {
  if (href === "") return false;
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(href);
  return m ? SAFE_SCHEMES.has(m[1]!.toLowerCase()) : href.startsWith("/") || href.startsWith("#");
};

const encodeValue = (v: string) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const encodeReserved = (v: string) => encodeURI(v).replace(/%25([0-9A-Fa-f]{2})/g, "%$1");

/** `{var}` fully encoded, `{+var}` with reserved characters kept, `{#var}` as a fragment. */
export function expandTemplate(template: string, groups: Record<string, string | undefined>): string {
  return template.replace(/\{([+#]?)(\w+)\}/g, (_, op: string, name: string) => {
    const value = groups[name] ?? "";
    return op === "" ? encodeValue(value) : (op === "#" ? "#" : "") + encodeReserved(value);
  });
}

/** The pattern as the server compiles it, or the reason it does not compile. */
function compile(pattern: string): RegExp | string {
  const source = pattern.replace(/\(\?P</g, "(?<").replace(/\(\?P=(\w+)\)/g, "\\k<$1>");
  try {
    return new RegExp(`(?<![^\\s'"(,:<])(?:${source})(?!\\w)`, "g");
  } catch (e) {
    return `Bad regular expression: ${String((e as Error).message).replace(/^Invalid regular expression: (\/.*\/[a-z]*: )?/s, "")}`;
  }
}

/** The sample cut into plain text and links, as a message with this text would show it. */
export function previewLinkifier(pattern: string, urlTemplate: string, sample: string): Preview {
  if (!pattern) return { parts: [{ text: sample }] };
  const re = compile(pattern);
  if (typeof re === "string") return { error: re };
  const parts: PreviewPart[] = [];
  let at = 0;
  for (let m = re.exec(sample); m; m = re.exec(sample)) {
    if (m[0] === "") {
      re.lastIndex++;
      continue;
    }
    const url = expandTemplate(urlTemplate, m.groups ?? {});
    if (!isSafeHref(url)) continue;
    if (m.index > at) parts.push({ text: sample.slice(at, m.index) });
    parts.push({ text: m[0], url });
    at = m.index + m[0].length;
  }
  if (at < sample.length) parts.push({ text: sample.slice(at) });
  return { parts };
}
