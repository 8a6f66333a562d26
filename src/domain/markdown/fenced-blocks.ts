import type { MarkdownIt } from "markdown-it";
import type { StateBlock } from "markdown-it";

/**
 * Zulip's ```quote and ```spoiler fences: block containers whose body is Markdown. Nested fences inside
 * are tracked the way Zulip's fence preprocessor does it, so a code block inside a quote does not end it.
 */
type Fence = { char: number; len: number; container: boolean };

const CONTAINER_RE = /^(quote|quoted|spoiler)(?:\s+(.*))?$/i;

/** The fence on a line, if any: marker char, run length and the trimmed text after it. */
function fenceAt(state: StateBlock, line: number): { char: number; len: number; rest: string } | null {
  if (state.sCount[line]! - state.blkIndent >= 4) return null;
  const start = state.bMarks[line]! + state.tShift[line]!;
  const max = state.eMarks[line]!;
  const char = state.src.charCodeAt(start);
  if (char !== 0x60 && char !== 0x7e) return null;
  const end = state.skipChars(start, char);
  const len = end - start;
  if (len < 3) return null;
  const rest = state.src.slice(end, max).trim();
  if (char === 0x60 && rest.includes("`")) return null;
  return { char, len, rest };
}

/** The line that closes the container opened at `startLine`, or -1 when it runs to the end. */
function findClosingLine(state: StateBlock, startLine: number, endLine: number, open: Fence): number {
  const stack: Fence[] = [open];
  for (let line = startLine + 1; line < endLine; line++) {
    const hasText = state.bMarks[line]! + state.tShift[line]! < state.eMarks[line]!;
    if (hasText && state.sCount[line]! < state.blkIndent) return -1;
    const f = fenceAt(state, line);
    if (!f) continue;
    const top = stack[stack.length - 1]!;
    const closes = f.rest === "" && f.char === top.char && f.len >= top.len;
    if (closes) {
      stack.pop();
      if (stack.length === 0) return line;
    } else if (top.container) {
      const lang = /^\S*/.exec(f.rest)![0];
      stack.push({ char: f.char, len: f.len, container: CONTAINER_RE.test(lang) });
    }
  }
  return -1;
}

function containerRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const f = fenceAt(state, startLine);
  if (!f) return false;
  const m = CONTAINER_RE.exec(f.rest);
  if (!m) return false;
  if (silent) return true;
  const kind = m[1]!.toLowerCase() === "spoiler" ? "spoiler" : "quote";
  const closing = findClosingLine(state, startLine, endLine, { char: f.char, len: f.len, container: true });
  const bodyEnd = closing === -1 ? endLine : closing;

  if (kind === "quote") {
    state.push("blockquote_open", "blockquote", 1).map = [startLine, bodyEnd];
  } else {
    const open = state.push("zulip_spoiler_open", "div", 1);
    open.map = [startLine, bodyEnd];
    const header = (m[2] ?? "").trim();
    if (header) {
      state.push("paragraph_open", "p", 1).map = [startLine, startLine + 1];
      const inline = state.push("inline", "", 0);
      inline.content = header;
      inline.map = [startLine, startLine + 1];
      inline.children = [];
      state.push("paragraph_close", "p", -1);
    }
    state.push("zulip_spoiler_content", "div", 0);
  }

  const oldParent = state.parentType;
  const oldLineMax = state.lineMax;
  state.parentType = "zulip_fence" as typeof state.parentType;
  state.lineMax = bodyEnd;
  state.md.block.tokenize(state, startLine + 1, bodyEnd);
  state.parentType = oldParent;
  state.lineMax = oldLineMax;

  if (kind === "quote") state.push("blockquote_close", "blockquote", -1);
  else state.push("zulip_spoiler_close", "div", -1);
  state.line = closing === -1 ? endLine : closing + 1;
  return true;
}

export function fencedBlocksPlugin(md: MarkdownIt): void {
  md.block.ruler.before("fence", "zulip_fenced_container", containerRule, {
    alt: ["paragraph", "reference", "blockquote", "list"],
  });
  md.renderer.rules.zulip_spoiler_open = () => `<div class="spoiler-block"><div class="spoiler-header">\n`;
  md.renderer.rules.zulip_spoiler_content = () => `</div><div class="spoiler-content" aria-hidden="true">\n`;
  md.renderer.rules.zulip_spoiler_close = () => `</div></div>\n`;
}
