/**
 * `record[key]` for a key a client chose: only the record's own entries, never what every object
 * inherits (`constructor`, `toString`, `__proto__`).
 */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
