/** Copy-on-write helpers for the state's records: a changed part is a new object, the rest is shared. */

export function withKey<K extends string | number, V>(rec: Record<K, V>, key: K, value: V): Record<K, V> {
  return { ...rec, [key]: value };
}

export function without<K extends string | number, V>(rec: Record<K, V>, ...keys: K[]): Record<K, V> {
  if (!keys.some((k) => k in rec)) return rec;
  const out = { ...rec };
  for (const k of keys) delete out[k];
  return out;
}

/** A sorted id list with `id` added (unchanged when present). */
export function addSorted(ids: readonly number[], id: number): number[] {
  if (ids.includes(id)) return ids as number[];
  const out = [...ids, id];
  if (out.length > 1 && out[out.length - 2]! > id) out.sort((a, b) => a - b);
  return out;
}

/** `ids` without those in `gone` (the same array when none is there). */
export function removeIds(ids: readonly number[], gone: ReadonlySet<number>): number[] {
  return ids.some((id) => gone.has(id)) ? ids.filter((id) => !gone.has(id)) : (ids as number[]);
}
