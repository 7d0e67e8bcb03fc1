/**
 * The app's search URL carries the API's own query string, so a search link can be read
 * by people and reproduced against the API. These helpers read it without losing order or
 * repeats (a repeated parameter is the server's to reject, not ours to hide).
 */

export type Entries = readonly (readonly [string, string])[];

export function entriesOf(search: string): [string, string][] {
  return [...new URLSearchParams(search)];
}

/** The first non-empty value of each parameter, as the form shows it. */
export function firstValues(entries: Entries): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (value.trim() !== '' && !(name in values)) values[name] = value;
  }
  return values;
}

/** Non-empty entries; the API treats empty values as absent and so do we. */
export function nonEmpty(entries: Entries): [string, string][] {
  return entries.filter(([, value]) => value.trim() !== '').map(([name, value]) => [name, value]);
}

/** Replaces (in place) or appends parameters, keeping the rest in order. */
export function withValues(entries: Entries, replacements: Readonly<Record<string, string | undefined>>): [string, string][] {
  const result: [string, string][] = [];
  const placed = new Set<string>();
  for (const [name, value] of entries) {
    if (!(name in replacements)) {
      result.push([name, value]);
      continue;
    }
    const replacement = replacements[name];
    if (replacement !== undefined && !placed.has(name)) result.push([name, replacement]);
    placed.add(name);
  }
  for (const [name, value] of Object.entries(replacements)) {
    if (value !== undefined && !placed.has(name)) result.push([name, value]);
  }
  return result;
}
