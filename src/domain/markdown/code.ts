import { escapeAttr, escapeCode } from "./escape";
import { own } from "../../lib/own";

/**
 * Pygments lexer names for common aliases: Zulip puts the lexer's name in `data-code-language`, and the
 * language as typed when Pygments does not know it.
 */
const LEXER_NAMES: Record<string, string> = {};
const ALIASES: [string, string[]][] = [
  ["Python", ["python", "py", "py3", "python3", "sage", "bazel", "starlark"]],
  ["Python 2.x", ["python2", "py2"]],
  ["Python console session", ["pycon"]],
  ["JavaScript", ["javascript", "js"]],
  ["TypeScript", ["typescript", "ts"]],
  ["JSX", ["jsx", "react"]],
  ["TSX", ["tsx"]],
  ["JSON", ["json", "json-object"]],
  ["Bash", ["bash", "sh", "ksh", "zsh", "shell"]],
  ["Bash Session", ["console", "shell-session"]],
  ["C", ["c"]],
  ["C++", ["cpp", "c++"]],
  ["C#", ["csharp", "c#", "cs"]],
  ["Java", ["java"]],
  ["Go", ["go", "golang"]],
  ["Rust", ["rust", "rs"]],
  ["Ruby", ["ruby", "rb", "duby"]],
  ["PHP", ["php", "php3", "php4", "php5"]],
  ["HTML", ["html"]],
  ["XML", ["xml"]],
  ["CSS", ["css"]],
  ["SCSS", ["scss"]],
  ["Sass", ["sass"]],
  ["SQL", ["sql"]],
  ["PostgreSQL SQL dialect", ["postgresql", "postgres"]],
  ["MySQL", ["mysql"]],
  ["YAML", ["yaml", "yml"]],
  ["TOML", ["toml"]],
  ["INI", ["ini", "cfg", "dosini"]],
  ["Markdown", ["markdown", "md"]],
  ["Diff", ["diff", "udiff"]],
  ["Kotlin", ["kotlin"]],
  ["Swift", ["swift"]],
  ["Objective-C", ["objective-c", "objectivec", "obj-c", "objc"]],
  ["Haskell", ["haskell", "hs"]],
  ["Scala", ["scala"]],
  ["Perl", ["perl", "pl"]],
  ["Lua", ["lua"]],
  ["TeX", ["tex", "latex"]],
  ["Text only", ["text"]],
  ["Docker", ["docker", "dockerfile"]],
  ["Makefile", ["make", "makefile", "mf", "bsdmake"]],
  ["Elixir", ["elixir", "ex", "exs"]],
  ["Erlang", ["erlang"]],
  ["Clojure", ["clojure", "clj"]],
  ["PowerShell", ["powershell", "pwsh", "posh", "ps1", "psm1"]],
  ["GraphQL", ["graphql"]],
  ["Julia", ["julia", "jl"]],
  ["Dart", ["dart"]],
  ["OCaml", ["ocaml"]],
  ["F#", ["fsharp", "f#"]],
  ["Matlab", ["matlab"]],
  ["CoffeeScript", ["coffeescript", "coffee-script", "coffee"]],
  ["Groovy", ["groovy"]],
  ["Nginx configuration file", ["nginx"]],
  ["Zig", ["zig"]],
  ["Emacs Lisp", ["emacs-lisp", "elisp", "emacs"]],
  ["Common Lisp", ["common-lisp", "cl", "lisp"]],
  ["Scheme", ["scheme", "scm"]],
  ["Racket", ["racket", "rkt"]],
  ["Fortran", ["fortran", "f90"]],
  ["VimL", ["vim"]],
  ["Batchfile", ["batch", "bat", "dosbatch", "winbatch"]],
  ["Protocol Buffer", ["protobuf", "proto"]],
  ["Terraform", ["terraform", "tf", "hcl"]],
  ["Nix", ["nixos", "nix"]],
  ["Solidity", ["solidity"]],
  ["verilog", ["verilog", "v"]],
];
for (const [name, aliases] of ALIASES) for (const a of aliases) LEXER_NAMES[a] = name;

/** The language of a fence's info string: Zulip's `{.lang}` / `.lang` / `lang` forms. */
export function fenceLanguage(info: string): string {
  const m = /^\{?\.?([a-zA-Z0-9_+\-./#]*)/.exec(info.trim());
  return m ? m[1]! : "";
}

export function lexerName(lang: string): string {
  return own(LEXER_NAMES, lang.toLowerCase()) ?? lang;
}

/** Zulip's code block: Pygments' `codehilite` markup without highlighting. */
export function renderCodeBlock(content: string, lang: string): string {
  const lines = content.split("\n").map((l) => l.trimEnd());
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start] === "") start++;
  while (end > start && lines[end - 1] === "") end--;
  const body = start < end ? `${escapeCode(lines.slice(start, end).join("\n"))}\n` : "";
  const attr = lang ? ` data-code-language="${escapeAttr(lexerName(lang))}"` : "";
  return `<div class="codehilite"${attr}><pre><span></span><code>${body}</code></pre></div>\n`;
}
