/**
 * Syntax colours for code blocks. Parley's server renders Zulip's `codehilite` markup without token
 * spans, so the app colours blocks that name a language, in the browser, with Pygments' class names
 * (`.k` keyword, `.s` string, `.c` comment …), the classes Zulip's server emits and the styles expect.
 * The tokenizer and its grammars (~10 KB) load only when a message with a code block is shown.
 */

let colour: Promise<typeof import("./highlight-run")> | null = null;

export function highlightCodeBlocks(root: HTMLElement): void {
  const blocks = root.querySelectorAll<HTMLElement>(".codehilite[data-code-language]:not([data-coloured])");
  if (!blocks.length) return;
  colour ??= import("./highlight-run");
  void colour.then((m) => {
    for (const block of blocks) m.colourBlock(block);
  });
}
