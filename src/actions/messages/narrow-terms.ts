import type { App } from "../../app";
import { ftsQuery } from "../../domain/highlight";
import { badNarrow, HAS_OPERANDS, searchTerms, type NarrowTerm } from "../../domain/narrow";
import type { Term } from "../../store/narrow";
import { emptyTopicName } from "./render";

/**
 * The narrow terms that read the same for a user and for a spectator (topic, has, id, search): the
 * store's term, and a search's words for highlighting. Null for any other operator.
 */
export function contentTerm(app: App, t: NarrowTerm): { term: Term; searchWords?: string[] } | null {
  const neg = t.negated;
  const o = t.operand;
  switch (t.operator) {
    case "topic":
      return { term: { k: "topic", topic: typeof o === "string" && o === emptyTopicName(app) ? "" : String(o), neg } };
    case "has":
      if (!HAS_OPERANDS.has(String(o))) throw badNarrow(`unknown 'has' operand ${o}`);
      return { term: { k: "has", what: String(o) as "link", neg } };
    case "id":
      if (!/^\d+$/.test(String(o))) throw badNarrow("Invalid message ID");
      return { term: { k: "id", id: Number(o), neg } };
    case "search": {
      const words = searchTerms(String(o));
      const fts = ftsQuery(words);
      return { term: fts === null ? { k: "never", neg } : { k: "search", fts, neg }, searchWords: neg ? undefined : words };
    }
    default:
      return null;
  }
}
