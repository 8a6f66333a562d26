/** The personal settings' values, pure: a list field's options, a people field's ids. */

/** A list field's options, in their order: key and text. */
export function listOptions(fieldData: string): { key: string; text: string }[] {
  try {
    const data = JSON.parse(fieldData) as Record<string, { text: string; order: string | number }>;
    return Object.entries(data)
      .sort(([, a], [, b]) => Number(a.order) - Number(b.order))
      .map(([key, o]) => ({ key, text: o.text }));
  } catch {
    return [];
  }
}

/** The people a Users field holds (its value is a JSON list of ids). */
export function fieldPeople(value: string): number[] {
  try {
    const ids = JSON.parse(value);
    return Array.isArray(ids) ? ids.filter((x): x is number => typeof x === "number") : [];
  } catch {
    return [];
  }
}
