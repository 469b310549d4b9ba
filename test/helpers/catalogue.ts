/**
 * The message catalogues read as flat keys and as messages (a plural key with its forms), for the
 * catalogue tests.
 */

const SUFFIXES = ['zero', 'one', 'two', 'few', 'many', 'other'];

/** `{ a: { b: 'x' } }` → `[['a.b', 'x']]`. */
export function flatten(value: object, prefix = ''): Array<[string, string]> {
  return Object.entries(value).flatMap(([key, inner]): Array<[string, string]> =>
    typeof inner === 'object' && inner !== null ? flatten(inner as object, `${prefix}${key}.`) : [[`${prefix}${key}`, String(inner)]],
  );
}

/** Keys without their plural suffix, each with its forms and the placeholders of all its forms. */
export function messages(value: object): Map<string, { forms: Set<string>; placeholders: Set<string>; texts: string[] }> {
  const found = new Map<string, { forms: Set<string>; placeholders: Set<string>; texts: string[] }>();
  for (const [key, text] of flatten(value)) {
    const plural = new RegExp(`^(.*)_(${SUFFIXES.join('|')})$`).exec(key);
    const base = plural ? plural[1]! : key;
    const entry = found.get(base) ?? { forms: new Set<string>(), placeholders: new Set<string>(), texts: [] };
    if (plural) entry.forms.add(plural[2]!);
    for (const match of text.matchAll(/\{\{\s*([^},\s]+)[^}]*\}\}/g)) entry.placeholders.add(match[1]!);
    entry.texts.push(text);
    found.set(base, entry);
  }
  return found;
}
