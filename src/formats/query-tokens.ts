/**
 * The query language's tokens: words (a trailing `*` marks a prefix), "quoted phrases",
 * parentheses, and AND, OR, NOT in capitals; a `-` directly before a word, phrase or group
 * negates it. Shared by the server's parser and the app's highlighting, so both read a
 * query alike.
 */

export type QueryToken =
  | { kind: 'word'; text: string; prefix: boolean; negated: boolean }
  | { kind: 'phrase'; text: string; negated: boolean }
  | { kind: 'open'; negated: boolean }
  | { kind: 'close' }
  | { kind: 'and' | 'or' | 'not' };

export function tokenizeQuery(input: string): QueryToken[] {
  const tokens: QueryToken[] = [];
  let i = 0;
  while (i < input.length) {
    const char = input[i]!;
    if (/\s/.test(char)) {
      i++;
      continue;
    }
    // A `-` directly before a word, phrase or group negates it, where it begins one: after a
    // closing parenthesis it joins as in a title's "16B(78)-32", which is no exclusion.
    const negated = char === '-' && i + 1 < input.length && !/\s/.test(input[i + 1]!) && input[i - 1] !== ')';
    if (negated) i++;
    const next = input[i]!;
    if (next === '"') {
      const end = input.indexOf('"', i + 1);
      const text = input.slice(i + 1, end === -1 ? input.length : end);
      i = end === -1 ? input.length : end + 1;
      tokens.push({ kind: 'phrase', text, negated });
    } else if (next === '(') {
      tokens.push({ kind: 'open', negated });
      i++;
    } else if (next === ')') {
      tokens.push({ kind: 'close' });
      i++;
    } else {
      let end = i;
      while (end < input.length && !/[\s"()]/.test(input[end]!)) end++;
      const raw = input.slice(i, end);
      i = end;
      if (!negated && (raw === 'AND' || raw === 'OR' || raw === 'NOT')) {
        tokens.push({ kind: raw.toLowerCase() as 'and' | 'or' | 'not' });
      } else {
        const prefix = raw.endsWith('*');
        tokens.push({ kind: 'word', text: raw.replace(/\*+$/, ''), prefix, negated });
      }
    }
  }
  return tokens;
}
