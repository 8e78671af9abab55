/**
 * Keys no section of a config or `--params` may hold: `__proto__` would set an object's prototype
 * (a YAML reader or a plain assignment drops it without a word), and `constructor` and `prototype`
 * name an object's own machinery. They are refused with the other bad keys, never dropped.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** What the problem of a forbidden key says. */
export function forbiddenKeyMessage(key: string): string {
  return `${JSON.stringify(key)} is a forbidden key (it names an object's prototype machinery, never a setting or a parameter): remove it or check the spelling`;
}

/** The paths (keys from `value` down) of every forbidden key an object holds as its own, at any depth. */
export function forbiddenKeyPaths(value: unknown, path: readonly (string | number)[] = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null) return [];
  const found: Array<Array<string | number>> = [];
  const entries: Array<[string | number, unknown]> = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.keys(value).map((k) => [k, (value as Record<string, unknown>)[k]]);
  for (const [key, v] of entries) {
    if (typeof key === 'string' && FORBIDDEN_KEYS.has(key)) found.push([...path, key]);
    else found.push(...forbiddenKeyPaths(v, [...path, key]));
  }
  return found;
}
