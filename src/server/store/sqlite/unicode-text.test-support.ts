import fc from 'fast-check';

const range = (from: number, to: number) => fc.integer({ min: from, max: to }).map((code) => String.fromCodePoint(code));

/** Characters where tokenizers differ: ASCII punctuation, letters with marks and the marks alone, other scripts, ligatures, private use, astral, lone surrogates. */
const char = fc.oneof(
  { weight: 6, arbitrary: range(0x20, 0x7e) },
  { weight: 2, arbitrary: range(0, 0x1f) },
  { weight: 3, arbitrary: range(0xa0, 0x24f) },
  { weight: 3, arbitrary: range(0x300, 0x36f) },
  { weight: 2, arbitrary: range(0x370, 0x52f) },
  { weight: 1, arbitrary: range(0x590, 0x6ff) },
  { weight: 1, arbitrary: range(0x900, 0x97f) },
  { weight: 1, arbitrary: range(0x1e00, 0x1eff) },
  { weight: 1, arbitrary: range(0x2000, 0x2bff) },
  { weight: 1, arbitrary: range(0x3000, 0x30ff) },
  { weight: 1, arbitrary: range(0x4e00, 0x4e40) },
  { weight: 1, arbitrary: range(0xe000, 0xe010) },
  { weight: 1, arbitrary: range(0xfb00, 0xfb06) },
  { weight: 1, arbitrary: range(0xff00, 0xffef) },
  { weight: 1, arbitrary: range(0x1d400, 0x1d7ff) },
  { weight: 1, arbitrary: range(0x1f300, 0x1f6ff) },
  { weight: 1, arbitrary: range(0, 0x10ffff) },
  { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udc00', '\udbff') },
);

/** English-like words, which Porter's stemmer changes, in any case. */
const word = fc.oneof(
  fc.constantFrom(
    'running',
    'Connections',
    'generalizations',
    'relational',
    'hopefulness',
    'ponies',
    'caresses',
    'agreed',
    'feudalism',
    'sensibiliti',
    'skies',
    'dying',
    'électricité',
    'Straße',
    'naïve',
    'œuvre',
    'ﬁnancial',
  ),
  fc.stringMatching(/^[a-zA-Z]{1,14}(ing|ed|es|s|ation|ness|ful|ly|izer|ism|ive|ize|ent|er)?$/),
);

/** Text of words and odd characters, where tokenizers differ. */
export const unicodeText = fc
  .array(fc.oneof(char, word, fc.constantFrom(' ', '-', "'", '.')), { maxLength: 60 })
  .map((parts) => parts.join(''));
