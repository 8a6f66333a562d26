/**
 * Matching what is typed against names, as Zulip's typeahead matchers do: a query matches a name at its
 * start or at the start of one of its words, without regard to case, and to accents unless the query
 * has some. Pure.
 */

const plain = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "");
const hasMarks = (s: string) => s.normalize("NFD") !== s;

function fold(s: string, keepMarks: boolean): string {
  const lower = s.toLowerCase();
  return keepMarks ? lower : plain(lower);
}

/** 0: the whole name, 1: its start, 2: a word's start (after a space, or an underscore for emoji), -1: no match */
export function matchRank(name: string, query: string, separators = " "): number {
  const q = query.toLowerCase();
  const n = fold(name, hasMarks(q));
  if (n === q) return 0;
  if (n.startsWith(q)) return 1;
  for (const sep of separators) if (n.includes(sep + q)) return 2;
  return -1;
}
