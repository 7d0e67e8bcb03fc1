import { beforeAll, describe, expect, test } from 'vitest';
import { loadBibtexReader, parseReferenceList, readReferenceList, type BibtexReader } from './parse-references';
import { maxInputBytes, maxReferencesPerRun } from './reference-input';

/**
 * The reader's cost grows with the list's length, never with its square, for every shape an
 * attacker or an accident can paste, up to the largest list accepted. Each shape is read at
 * sizes doubling from 4 KB to the 8 MB accepted, beside an ordinary list of the same size: its
 * CPU time (not wall time, which a busy machine stretches) stays within ten times the ordinary
 * list's at every size. A reader quadratic in a line, a paragraph or a reference passes that
 * bound within a few doublings, so the test fails in seconds rather than hanging.
 */

/** A shape's text of about `size` characters. */
type Shape = (size: number) => string;

const repeatTo = (unit: string, size: number) => unit.repeat(Math.max(1, Math.floor(size / unit.length)));
/** Blank-line separated references of about 2,000 characters each: the first 500 are read in full. */
const references = (make: (n: number) => string, size: number) => {
  const one = make(0).length + 2;
  return Array.from({ length: Math.max(1, Math.floor(size / one)) }, (_, n) => make(n)).join('\n\n');
};

const shapes: Record<string, Shape> = {
  'one DOI line ending in a parenthesis': (size) => `10.1234/${repeatTo('a', size)})`,
  'a DOI line ending in a parenthesis, within a reference': (size) =>
    `Smith J. A title of the work (2020).\nsee 10.1234/${repeatTo('a', size)})\nMore of the reference.`,
  'a long word before a DOI, within a reference': (size) => `Smith J. A title of the work\n${repeatTo('x', size)}10.1234/a)\nMore.`,
  'a DOI closed by a run of parentheses': (size) => `10.1234/a${repeatTo(')', size)}`,
  'a DOI opening a run of parentheses': (size) => `10.1234/a${repeatTo('(', size)})`,
  'lines without years, one paragraph': (size) => repeatTo('Some words of a reference without any year here\n', size),
  'numbered lines without years': (size) => repeatTo('12. Some words of a reference without any year here\n', size),
  'one run without spaces or lines': (size) => repeatTo('x', size),
  'a run of DOI prefixes': (size) => repeatTo('10.1234/', size),
  'one line of words': (size) => repeatTo('Some words of a reference without a year ', size),
  'lines each complete but short': (size) => repeatTo('A (2001).\n', size),
  'a run of full stops and spaces': (size) => `Smith J. Title (2001) ${repeatTo('. ', size)}x`,
  'references full of quotation marks': (size) => references((n) => `Smith J (2001) ${n} ${'“'.repeat(2000)}.`, size),
  'references full of full stops': (size) => references((n) => `Smith J. ${n} Title ${'.'.repeat(2000)} x`, size),
  'references full of parentheses and years': (size) => references((n) => `Smith J ${n} ${'(2001'.repeat(400)}`, size),
  'references full of capitalised words and commas': (size) => references((n) => `${'Smith, Jones; '.repeat(150)}${n}`, size),
  'references full of initials': (size) => references((n) => `${'J. A. '.repeat(330)}${n}`, size),
  'an unbalanced BibTeX entry': (size) => `@article{x,\n${repeatTo('  title = {{{ a\n', size)}`,
  'an RIS record without its end': (size) => `TY  - JOUR\n${repeatTo('TI  - a title\n', size)}`,
};

/** An ordinary list of every kind, repeated: what each shape is measured against, on the same machine at the same moment. */
const ordinaryUnit = [
  '10.1038/nature14539',
  '',
  'LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521(7553),',
  '    436–444. https://doi.org/10.1038/nature14539',
  '2. Altschul SF, Gish W, Miller W, Myers EW, Lipman DJ. Basic local alignment search tool. J Mol Biol. 1990;215(3):403-10.',
  '',
  '@article{Wilkinson2016,',
  '  author = {Wilkinson, Mark D. and Dumontier, Michel},',
  '  title = {The {FAIR} Guiding Principles for scientific data management and stewardship},',
  '  year = {2016}, doi = {10.1038/sdata.2016.18}',
  '}',
  'TY  - JOUR',
  'TI  - Deep learning',
  'PY  - 2015',
  'ER  - ',
  '',
].join('\n');

function cpuMilliseconds(run: () => unknown): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** The least of two readings: a collection or a neighbour's burst in one of them says nothing of the reader. */
const cost = (run: () => unknown) => Math.min(cpuMilliseconds(run), cpuMilliseconds(run));

/**
 * The least of up to three readings, stopping at the first within `bound`. The process's CPU
 * time also counts its other threads (a pool an earlier file of the worker left winding down),
 * so one reading over the bound says little; a quadratic reader is over it every time.
 */
function costWithin(run: () => unknown, bound: number): number {
  let least = Infinity;
  for (let reading = 0; reading < 3 && least > bound; reading++) least = Math.min(least, cpuMilliseconds(run));
  return least;
}

const sizes = Array.from({ length: 12 }, (_, step) => Math.round(maxInputBytes / 2 ** (11 - step)));

/** Each shape at each size, its CPU time within ten times that of a list of the kind given at that size. */
function readsLike(baselineText: (size: number) => string, cases: Record<string, Shape>, at = sizes) {
  let readBibtex: BibtexReader;
  const baselines = new Map<number, number>();
  beforeAll(async () => {
    // BibTeX's reader is loaded once, outside the measurement.
    readBibtex = await loadBibtexReader();
    for (const size of at) {
      const text = baselineText(size);
      baselines.set(
        size,
        cost(() => readReferenceList(text, readBibtex)),
      );
    }
  });
  test.each(Object.entries(cases))('%s, up to 8 MB', (_, shape) => {
    const figures: string[] = [];
    for (const size of at) {
      const text = shape(size).slice(0, maxInputBytes);
      const baseline = baselines.get(size)!;
      const bound = 10 * baseline + 100;
      const measured = costWithin(() => readReferenceList(text, readBibtex), bound);
      figures.push(`${Math.round(size / 1000)} KB: ${measured.toFixed(0)} ms (beside ${baseline.toFixed(0)} ms)`);
      // A reader quadratic anywhere passes this bound within a few doublings; a linear one stays under it at every size.
      expect(measured, figures.join(', ')).toBeLessThanOrEqual(bound);
    }
  });
}

describe('the reader is linear in the length of the list', () => {
  readsLike((size) => repeatTo(ordinaryUnit, size), shapes);
});

describe('BibTeX entries as long as an entry may be cost what long entries cost', () => {
  const entry = (n: number, note: string) => `@article{k${n},\n  title = {A title ${n}},\n  note = {${note}}\n}`;
  // citation-js reads every entry; at the largest size only, its cost being its own.
  readsLike(
    (size) => references((n) => entry(n, 'word x '.repeat(6_000)), size),
    {
      'entries full of braces': (size) => references((n) => entry(n, 'word {x} '.repeat(5_000)), size),
      'entries of one brace after another': (size) => references((n) => entry(n, '{}'.repeat(20_000)), size),
    },
    [maxInputBytes],
  );
});

describe('a broken entry does not swallow the references after it', () => {
  const after = [
    'Shannon, C.E. (1948) A mathematical theory of communication. Bell System Technical Journal, 27(3), pp. 379–423.',
    '',
    '10.1038/nature14539',
  ].join('\n');

  test('an unclosed @comment ends at the next blank line', async () => {
    const { references } = await parseReferenceList(`@comment{jabref-meta: databaseType:bibtex;\n\n${after}`);
    expect(references.map((reference) => [reference.kind, reference.title ?? reference.doi])).toEqual([
      ['formatted', 'A mathematical theory of communication'],
      ['doi', '10.1038/nature14539'],
    ]);
  });

  test('an unclosed entry ends where the next one starts, and says it could not be read', async () => {
    const { references } = await parseReferenceList(
      [
        '@article{broken, title = {Half an entry',
        '@misc{whole, title = {Principles that govern the folding of protein chains}, year = {1973}}',
        'TY  - JOUR',
        'TI  - An RIS record without its end',
        '',
        after,
      ].join('\n'),
    );
    expect(references.map((reference) => [reference.kind, reference.title ?? reference.doi])).toEqual([
      ['bibtex', undefined],
      ['bibtex', 'Principles that govern the folding of protein chains'],
      ['ris', 'An RIS record without its end'],
      ['formatted', 'A mathematical theory of communication'],
      ['doi', '10.1038/nature14539'],
    ]);
    expect(references[0]!.problem).toMatch(/could not be read/);
  });

  test('the per-run maximum still holds with broken entries among many', async () => {
    const text = Array.from({ length: 1_000 }, (_, n) => `@comment{${n}\n\n10.1234/${n}`).join('\n\n');
    const { references, leftOut } = await parseReferenceList(text);
    expect(references).toHaveLength(maxReferencesPerRun);
    expect(leftOut).toBe(1_000 - maxReferencesPerRun);
    expect(references.every((reference) => reference.kind === 'doi')).toBe(true);
  });
});
