/**
 * Python's fnmatch.fnmatch on POSIX (case-sensitive): `*` any run, `?` one character, `[abc]`,
 * `[!abc]` sets; everything else literal. Zulip matches only_events / exclude_events with it.
 */
export function fnmatch(name: string, pattern: string): boolean {
  return toRegExp(pattern).test(name);
}

const cache = new Map<string, RegExp>();

function toRegExp(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (re) return re;
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*") out += "[\\s\\S]*";
    else if (c === "?") out += "[\\s\\S]";
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        let set = pattern.slice(i + 1, end).replace(/\\/g, "\\\\");
        if (set.startsWith("!")) set = "^" + set.slice(1);
        else if (set.startsWith("^")) set = "\\" + set;
        out += `[${set}]`;
        i = end;
      }
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  re = new RegExp(`^${out}$`);
  if (cache.size < 1000) cache.set(pattern, re);
  return re;
}
