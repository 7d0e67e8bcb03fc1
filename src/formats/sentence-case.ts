/**
 * A title in headline case ("Line Ratios from Laboratory Sources") in sentence case ("Line
 * ratios from laboratory sources"), for styles whose guide asks for it. CSL cannot do this:
 * its styles expect titles stored in sentence case, because no rule tells a proper noun from
 * a common one. So this lowers only what it has no reason to keep:
 *
 * - a title already in sentence case (a significant word in lower case) is left alone;
 * - the first word, and the first after a colon or other stop, stay capitalised;
 * - acronyms and words with inner capitals or digits (CHIANTI, KBase, 16B(78)-32), words of
 *   one or two letters (Fe), months and days, and words with diacritics (Alfvén) stay;
 * - names the record itself capitalises (its organisations, affiliations, and words its
 *   description capitalises mid-sentence: "Alfvén", "Illinois") stay;
 * - a run of five or more capitalised words is taken for a name ("Hawaii Ocean Science &
 *   Technology Park"), so are words an acronym in parentheses spells out, and a capitalised word followed by a lower-case one for a binomial
 *   ("Pseudoalteromonas sp.").
 *
 * What it still gets wrong: a name of plain words that the record writes nowhere else and
 * no rule above catches (a place named only in the title) is lowered.
 */

const minorWords = new Set(
  'a an and as at but by en for from if in into nor of off on onto or over per so than the to up upon via vs with yet &'.split(' '),
);
const calendarWords = new Set(
  'january february march april may june july august september october november december monday tuesday wednesday thursday friday saturday sunday'.split(
    ' ',
  ),
);

/** Every part of the word is a capitalised or lower-case plain word ("Pressure-Temperature", "Genome-wide", "Alfvén"). */
const plainWord = /^\p{Lu}[\p{Ll}\p{M}’']*(?:-\p{L}[\p{Ll}\p{M}’']*)*$/u;
const lowerWord = /^\p{Ll}/u;

interface Token {
  readonly lead: string;
  readonly core: string;
  readonly trail: string;
}

function tokenize(word: string): Token {
  const match = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/su.exec(word)!;
  return { lead: match[1]!, core: match[2]!, trail: match[3]! };
}

/** Words a record writes with a capital where no sentence starts: its names. */
export function properNounsOf(texts: readonly string[], prose: string): Set<string> {
  const names = new Set<string>();
  for (const text of texts) for (const word of text.match(/\p{Lu}[\p{L}\p{M}’']*/gu) ?? []) names.add(word);
  // In running text, a word after a full stop (or first) may be capitalised only for that.
  const sentences = prose.slice(0, 20_000).split(/[.!?:]\s+/);
  for (const sentence of sentences) {
    const words = sentence.split(/\s+/);
    for (let index = 1; index < words.length; index += 1) {
      const core = tokenize(words[index]!).core;
      if (plainWord.test(core)) names.add(core);
    }
  }
  return names;
}

export function toSentenceCase(title: string, names: ReadonlySet<string> = new Set()): string {
  const parts = title.split(/(\s+)/);
  const words = parts.filter((_, index) => index % 2 === 0).map(tokenize);
  // A significant word in lower case: the title is not in headline case; leave it as written.
  const significant = words.slice(1).filter(({ core }) => core.length > 2 && !minorWords.has(core.toLowerCase()) && /^\p{L}/u.test(core));
  if (significant.some(({ core }) => lowerWord.test(core))) return title;
  if (significant.filter(({ core }) => plainWord.test(core)).length < 2) return title;

  const keep = words.map((word, index) => {
    const { core } = word;
    if (!plainWord.test(core)) return true;
    if (index === 0 || /[:.?!;]$/.test(words[index - 1]!.trail)) return true;
    if (core.length <= 2 || calendarWords.has(core.toLowerCase())) return true;
    // English words carry no diacritics; a capitalised word with one is a name (Alfvén, Löhnert).
    if (/[^\u0000-\u007f]/u.test(core.normalize('NFC'))) return true;
    if (names.has(core) || core.split('-').every((part) => names.has(part))) return true;
    const next = words[index + 1];
    return Boolean(next && lowerWord.test(next.core) && !minorWords.has(next.core.toLowerCase()));
  });
  // Runs of five or more capitalised words ("&" between them allowed) are names.
  let start = -1;
  let count = 0;
  for (let index = 0; index <= words.length; index += 1) {
    const word = words[index];
    const breaks = /[:;,.]$/.test(words[index - 1]?.trail ?? '');
    if (word && plainWord.test(word.core) && (start < 0 || !breaks)) {
      if (start < 0) start = index;
      count += 1;
      continue;
    }
    if (word && start >= 0 && word.core === '' && word.lead === '&') continue;
    if (count >= 5) for (let inner = start; inner < index; inner += 1) keep[inner] = true;
    start = word && plainWord.test(word.core) ? index : -1;
    count = start >= 0 ? 1 : 0;
  }
  // Words spelled out by the acronym after them: "Natural Energy Laboratory of Hawaii Authority (NELHA)".
  words.forEach((word, index) => {
    if (!word.lead.endsWith('(') || !/^\p{Lu}{2,}$/u.test(word.core)) return;
    let initials = '';
    for (let back = index - 1; back >= 0 && initials.length < word.core.length; back -= 1) {
      const { core } = words[back]!;
      if (minorWords.has(core)) continue;
      if (!/^\p{Lu}/u.test(core)) return;
      initials = core[0] + initials;
      if (initials === word.core) for (let inner = back; inner < index; inner += 1) keep[inner] = true;
    }
  });
  // A word kept once (a name at the start of a part) is kept wherever it recurs.
  const kept = new Set(words.filter((word, index) => keep[index] && plainWord.test(word.core)).map((word) => word.core));
  return parts
    .map((part, index) => {
      if (index % 2 === 1) return part;
      const position = index / 2;
      const word = words[position]!;
      if (keep[position] || kept.has(word.core)) return part;
      return word.lead + word.core.toLowerCase() + word.trail;
    })
    .join('');
}
