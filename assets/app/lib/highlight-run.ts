/** The lazily loaded half of highlight.ts: tokenizes a code block and wraps tokens in Pygments classes. */
import { tokenizeWith, type ShjToken } from "@speed-highlight/core/tokenize";
import * as grammars from "@speed-highlight/core/languages";

/** Pygments lexer names (what Parley puts in data-code-language) → the tokenizer's grammar. */
const LEXERS: Record<string, keyof typeof grammars> = {
  Python: "py",
  "Python 2.x": "py",
  "Python console session": "py",
  JavaScript: "js",
  JSX: "js",
  TypeScript: "ts",
  TSX: "ts",
  JSON: "json",
  Bash: "bash",
  "Bash Session": "bash",
  C: "c",
  "C++": "c",
  "C#": "c",
  "Objective-C": "c",
  Java: "java",
  Kotlin: "java",
  Scala: "java",
  Go: "go",
  Rust: "rs",
  HTML: "html",
  XML: "xml",
  CSS: "css",
  SCSS: "css",
  SQL: "sql",
  "PostgreSQL SQL dialect": "sql",
  MySQL: "sql",
  YAML: "yaml",
  TOML: "toml",
  INI: "ini",
  Markdown: "md",
  Diff: "diff",
  Lua: "lua",
  Perl: "pl",
  Docker: "docker",
  Makefile: "make",
};

const PYGMENTS: Record<ShjToken, string> = {
  kwd: "k",
  str: "s",
  cmnt: "c",
  num: "m",
  func: "nf",
  class: "nc",
  type: "kt",
  bool: "kc",
  oper: "o",
  var: "nv",
  esc: "se",
  section: "gh",
  insert: "gi",
  deleted: "gd",
  err: "err",
};

type Grammar = Exclude<Parameters<typeof tokenizeWith>[1], string>;
const languages = grammars as unknown as Record<string, Grammar>;

export function colourBlock(block: HTMLElement): void {
  block.dataset.coloured = "";
  const grammar = LEXERS[block.dataset.codeLanguage ?? ""];
  const code = block.querySelector("code");
  if (!grammar || !code) return;
  const out = document.createDocumentFragment();
  tokenizeWith(code.textContent ?? "", languages[grammar]!, (text, token) => {
    if (!text) return;
    if (!token) return void out.append(text);
    const span = document.createElement("span");
    span.className = PYGMENTS[token];
    span.textContent = text;
    out.append(span);
  }, { languages });
  code.replaceChildren(out);
}
