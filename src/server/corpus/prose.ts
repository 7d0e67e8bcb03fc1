import { type Picker, type Random, zipfPicker } from './random';
import type { Topic } from './topics';
import { benchmarkTerms, generalAdjectives, generalNouns, pastParticiples, presentVerbs, quantities, thirdPersonVerbs } from './vocabulary';

/**
 * Sentences, titles and keywords from a topic's vocabulary. Templates hold slots:
 * {N} noun, {A} adjective, {V} verb, {P} participle, {S} third-person verb, {X} a special
 * term, {L} a place, {Q} a quantity with its unit. Most words come from the record's
 * topic, the rest from the shared vocabulary, both Zipf-weighted.
 */

const slotCodes = 'NAVPSXLQ';
const enum Slot {
  Noun,
  Adjective,
  Verb,
  Participle,
  ThirdPerson,
  Term,
  Place,
  Quantity,
}
/** A literal piece of text, or a slot (its index in `slotCodes`). */
type Part = string | Slot;

interface Template {
  readonly parts: readonly Part[];
  /** Per part: whether a literal holds a word, which ends adjacency for phrase matching. */
  readonly breaks: readonly boolean[];
  /** Spaces in the literal parts, for counting words without rescanning the sentence. */
  readonly spaces: number;
  /** Whether an indefinite article precedes a slot, so "a" may need to become "an". */
  readonly article: boolean;
}

const articleBeforeVowel = /\b([Aa]) (?=[aeiouAEIO])/g;

function spacesIn(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 32) count++;
  return count;
}

const slotPattern = /\{([NAVPSXLQ])\}/g;

function compile(text: string): Template {
  const parts: Part[] = [];
  const breaks: boolean[] = [];
  let last = 0;
  for (const match of text.matchAll(slotPattern)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(slotCodes.indexOf(match[1]!));
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  // Search engines tokenise on letters and digits, so punctuation alone keeps words adjacent.
  for (const part of parts) breaks.push(typeof part === 'string' && /[\p{L}\p{N}]/u.test(part));
  const spaces = parts.reduce<number>((sum, part) => sum + (typeof part === 'string' ? spacesIn(part) : 0), 0);
  return { parts, breaks, spaces, article: /(^|\s)[Aa] \{/.test(text) };
}

const compileAll = (texts: readonly string[]) => texts.map(compile);

const sentenceTemplates = compileAll([
  'We {V} the {A} {N} of {N} in {A} {N}.',
  'The {N} was {P} using {A} {N} and {N}.',
  'The {A} {N} {S} the {N} of the {N}.',
  'Results show that {N} {S} {A} {N} under {A} conditions.',
  'In this work, we {V} {A} {N} for {N} at {Q}.',
  '{A} {N} and {N} were {P} at {Q}.',
  'A {A} {N} of {N} is {P} for {X}.',
  'We {V} how {N} {S} {N} and {N}.',
  'The {N} of {X} was {P} with {A} {N}.',
  'These results {S} the {A} {N} of {N} in {N}.',
  'Our {N} {S} {N} by {Q} relative to {A} {N}.',
  'Both {N} and {A} {N} were {P} in the {N}.',
  'The {A} {N} agrees with {A} {N} within {Q}.',
  'This {N} {S} {A} {N} and supports future {N}.',
  'We also {V} {N} in {X} and {X}.',
  'Measurements at {L} were {P} to {V} the {N}.',
  '{A} {N} {S} {N}, while {N} {S} the {A} {N}.',
  'A {A} {N} is proposed to {V} {N} of {A} {N}.',
]);

const literatureTitles = [
  '{A} {N} of {N} in {A} {N}',
  '{N} and {N} in {A} {N}',
  'Effect of {N} on {A} {N}',
  '{A} {N} for {N}: {A} {N} and {N}',
  'Toward {A} {N} {N}',
  'On the {N} of {A} {N}',
  '{X} {N}: A {A} {N} Study',
  'Measurement of {N} in {X}',
  '{A} {N} using {X}',
  '{A} {N} and {A} {N} of {N}',
  'Understanding {N} in {A} {N}',
];

const titleTemplates = {
  literature: compileAll(literatureTitles),
  report: compileAll([
    ...literatureTitles,
    'Final Technical Report: {A} {N} for {N}',
    'Annual Progress Report: {N} and {A} {N}',
    '{A} {N} at {L}: Status Report',
  ]),
  dataset: compileAll([
    '{L}: {A} {N} and {N}',
    '{X} {N} Dataset',
    '{N} and {N} Measurements at {L}',
    '{A} {N} Data for {N}',
    'Simulation Output: {A} {N} ({X})',
    '{L} {N} Logs',
    '{X}: {A} {N} Observations',
  ]),
  patent: compileAll([
    'Method for {A} {N} of {N}',
    'System and method for {N} {N}',
    '{A} {N} apparatus and methods of {N}',
    '{N} having {A} {N}',
    'Methods of producing {A} {N}',
    '{A} {N} device with {A} {N}',
  ]),
  media: compileAll([
    '{L} Tour: {A} {N}',
    'Lecture: {A} {N} and {N}',
    '{A} {N} Explained',
    'Interview on {A} {N}',
    '{A} {N} Webinar',
    'Science in 60 Seconds: {N}',
    'Seminar: {N} at {L}',
  ]),
} as const;

export type TitleStyle = keyof typeof titleTemplates;

/** Sentences that open a description, by the kind of record. */
const openingTemplates = {
  literature: compileAll(['']),
  report: compileAll(['']),
  dataset: compileAll([
    'This dataset contains {A} {N} and {N} from {L}.',
    'This dataset consists of {N} readings and {A} {N} collected at {L}.',
    'The collection holds {A} {N} files for {N}.',
  ]),
  patent: compileAll([
    'A {A} {N} for {N} is disclosed.',
    'The invention relates to {A} {N} and methods of {N}.',
    'An apparatus and method for {A} {N} are provided.',
  ]),
  media: compileAll([
    'In this video, researchers explain {A} {N} and {N}.',
    'Recording of a presentation on {A} {N} at {L}.',
    'Audio recording of a seminar on {N} and {A} {N}.',
  ]),
} as const;

/** The benchmark sentences: each term of `benchmarkTerms` appears only through these. */
const benchmarkTemplates = {
  rare: compileAll(['Zirconolite {N} was also {P}.', 'A zirconolite {N} was {P} for comparison.']),
  onePercent: compileAll([
    'Comparison with perovskite {N} is included.',
    'We also consider perovskite {N} for {N}.',
    'Halide perovskite {N} were {P} as a reference.',
  ]),
  common: compileAll([
    'The {N} was {P} as a function of temperature.',
    'Measurements cover the temperature range of interest for {N}.',
    'Temperature {N} {S} the {A} {N}.',
    'The temperature dependence of {N} was {P}.',
  ]),
  nearlyAll: compileAll([
    'Supporting data for the {N} are included.',
    'The {N} data were {P} with {A} {N}.',
    'Data from {L} were used to {V} the {N}.',
    'We compare the {A} {N} with experimental data.',
    'All data and {N} are available from the authors.',
    'The data {S} {A} {N} of the {N}.',
  ]),
  phrase: compileAll(['The {N} of molten salt {N} was {P}.', 'A molten salt {N} loop was {P} at {Q}.']),
} as const;

export type BenchmarkSentence = keyof typeof benchmarkTemplates;

const [phraseFirst, phraseSecond] = benchmarkTerms.phrase.split(' ') as [string, string];

const generalNoun = zipfPicker(generalNouns);
const generalAdjective = zipfPicker(generalAdjectives);
const presentVerb = zipfPicker(presentVerbs);
const participle = zipfPicker(pastParticiples);
const thirdPerson = zipfPicker(thirdPersonVerbs);

const smallWords = new Set(['a', 'an', 'and', 'as', 'at', 'by', 'for', 'from', 'in', 'of', 'on', 'or', 'the', 'to', 'with', 'via']);

const capitalize = (text: string) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : text);

function titleCase(text: string): string {
  return text
    .split(' ')
    .map((word, index) => (index > 0 && smallWords.has(word) ? word : capitalize(word)))
    .join(' ');
}

/** Word generator for one topic. */
export class TopicWriter {
  readonly topic: Topic;
  private readonly nouns: Picker<string>;
  private readonly adjectives: Picker<string>;
  private readonly terms: Picker<string>;
  private previous = '';
  /** Words in the last sentence filled: runs of characters between single spaces. */
  lastWordCount = 0;

  constructor(topic: Topic) {
    this.topic = topic;
    this.nouns = zipfPicker(topic.nouns);
    this.adjectives = zipfPicker(topic.adjectives);
    this.terms = zipfPicker(topic.terms, 1.1);
  }

  noun(random: Random): string {
    const u = random.float();
    let word = u < 0.04 ? this.terms.draw(random) : u < 0.62 ? this.nouns.draw(random) : generalNoun.draw(random);
    // The benchmark phrase must only occur where the generator puts it on purpose.
    while (this.previous === phraseFirst && word === phraseSecond) word = this.nouns.draw(random);
    return word;
  }

  adjective(random: Random): string {
    return random.float() < 0.55 ? this.adjectives.draw(random) : generalAdjective.draw(random);
  }

  term(random: Random): string {
    return this.terms.draw(random);
  }

  place(random: Random): string {
    return random.pick(this.topic.places);
  }

  private fill(template: Template, random: Random): string {
    let text = '';
    this.previous = '';
    const { parts, breaks } = template;
    let spaces = template.spaces;
    for (let index = 0; index < parts.length; index++) {
      const part = parts[index]!;
      if (typeof part === 'string') {
        // Capitalising the first piece, not the finished sentence, spares flattening it.
        text += index === 0 ? capitalize(part) : part;
        if (breaks[index]) this.previous = '';
        continue;
      }
      let word: string;
      switch (part) {
        case Slot.Noun:
          word = this.noun(random);
          break;
        case Slot.Adjective:
          word = this.adjective(random);
          break;
        case Slot.Verb:
          word = presentVerb.draw(random);
          break;
        case Slot.Participle:
          word = participle.draw(random);
          break;
        case Slot.ThirdPerson:
          word = thirdPerson.draw(random);
          break;
        case Slot.Term:
          word = this.terms.draw(random);
          break;
        case Slot.Place:
          word = this.place(random);
          break;
        default:
          word = quantities[random.int(0, quantities.length - 1)]!(random.int(0, 1_000_000));
      }
      text += index === 0 ? capitalize(word) : word;
      spaces += spacesIn(word);
      this.previous = word;
    }
    this.lastWordCount = text ? spaces + 1 : 0;
    return template.article ? text.replace(articleBeforeVowel, '$1n ') : text;
  }

  sentence(random: Random): string {
    return this.fill(random.pick(sentenceTemplates), random);
  }

  benchmarkSentence(kind: BenchmarkSentence, random: Random): string {
    return this.fill(random.pick(benchmarkTemplates[kind]), random);
  }

  /** The first sentence of a description, which says what kind of record it is; '' for literature. */
  opening(style: TitleStyle, random: Random): string {
    return this.fill(random.pick(openingTemplates[style]), random);
  }

  title(style: TitleStyle, random: Random): string {
    const text = this.fill(random.pick(titleTemplates[style]), random);
    return (style === 'literature' || style === 'report') && random.chance(0.5) ? text : titleCase(text);
  }

  /** Free keywords: nouns, adjective-noun pairs and special terms, without repeats. */
  keywords(count: number, random: Random): string[] {
    const keywords = new Set<string>();
    for (let attempt = 0; keywords.size < count && attempt < count * 3; attempt++) {
      const u = random.float();
      if (u < 0.55) {
        this.previous = '';
        keywords.add(this.noun(random));
      } else if (u < 0.85) {
        const adjective = this.adjective(random);
        this.previous = adjective;
        keywords.add(`${adjective} ${this.noun(random)}`);
      } else keywords.add(this.term(random));
    }
    return [...keywords];
  }

  /** Paragraphs of about `length` characters in all, for full texts. */
  paragraphs(length: number, random: Random): string[] {
    const paragraphs: string[] = [];
    let total = 0;
    while (total < length) {
      const sentences: string[] = [];
      const count = random.int(3, 6);
      for (let i = 0; i < count; i++) sentences.push(this.sentence(random));
      const paragraph = sentences.join(' ');
      paragraphs.push(paragraph);
      total += paragraph.length + 2;
    }
    return paragraphs;
  }
}
