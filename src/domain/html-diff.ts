import { diffArrays } from "diff";

/** Tags, whitespace runs and words of rendered HTML, so a diff never splits a tag. */
function tokens(html: string): string[] {
  return html.match(/<[^>]*>|\s+|[^<\s]+/g) ?? [];
}

const isTag = (t: string) => t.startsWith("<");

/**
 * Zulip's content_html_diff: the new rendering with inserted words wrapped in
 * `highlight_text_inserted` and removed words shown in `highlight_text_deleted`, inside a <div>.
 * Markup is taken from the new side; removed tags are dropped so the result stays well formed.
 */
export function htmlDiff(oldHtml: string, newHtml: string): string {
  let out = "";
  for (const part of diffArrays(tokens(oldHtml), tokens(newHtml))) {
    if (!part.added && !part.removed) {
      out += part.value.join("");
      continue;
    }
    const cls = part.added ? "highlight_text_inserted" : "highlight_text_deleted";
    let run = "";
    const flush = () => {
      if (run.trim()) out += `<span class="${cls}">${run}</span>`;
      else if (part.added) out += run;
      run = "";
    };
    for (const t of part.value) {
      if (!isTag(t)) run += t;
      else {
        flush();
        if (part.added) out += t;
      }
    }
    flush();
  }
  return `<div>${out}</div>`;
}
