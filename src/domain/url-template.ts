/**
 * RFC 6570 URL templates: just enough to validate one and list its variable names (code
 * playgrounds need exactly one variable, `code`). Pure; no expansion.
 */

/** Level 2-4 operators; the reserved ones (= , ! @ |) are refused as the RFC says. */
const OPERATORS = new Set(["+", "#", ".", "/", ";", "?", "&"]);
const RESERVED_OPERATORS = new Set(["=", ",", "!", "@", "|"]);
const VARCHAR = "(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})";
const VARSPEC = new RegExp(`^(${VARCHAR}+(?:\\.${VARCHAR}+)*)(?::[1-9][0-9]{0,3}|\\*)?$`);
/** Characters a literal part may not hold (CTL, space, and " ' < > \ ^ ` { | }). */
const LITERAL_FORBIDDEN = /[\x00-\x20"'<>\\^`{|}\x7f]/;

/** The variable names of a template, in order of appearance, or null when it is not a valid RFC 6570 template. */
export function templateVariables(template: string): string[] | null {
  const names: string[] = [];
  let i = 0;
  while (i < template.length) {
    const ch = template[i]!;
    if (ch === "{") {
      const end = template.indexOf("}", i + 1);
      if (end < 0) return null;
      let expression = template.slice(i + 1, end);
      if (RESERVED_OPERATORS.has(expression[0] ?? "")) return null;
      if (OPERATORS.has(expression[0] ?? "")) expression = expression.slice(1);
      if (!expression) return null;
      for (const spec of expression.split(",")) {
        const m = VARSPEC.exec(spec);
        if (!m) return null;
        names.push(m[1]!);
      }
      i = end + 1;
    } else if (ch === "%") {
      if (!/^%[0-9A-Fa-f]{2}$/.test(template.slice(i, i + 3))) return null;
      i += 3;
    } else {
      if (LITERAL_FORBIDDEN.test(ch)) return null;
      i++;
    }
  }
  return names;
}
