/** Lists cut into parts small enough for one statement's `IN (...)` (SQLite binds at most 32,766 values). */
const CHUNK = 500;
export function chunked<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
