import { orcid } from './identifiers';
import type { MediaMimeType } from './media';
import {
  type DataRepository,
  type ResearchOrg,
  contributingOrgs,
  dataRepositoryByKey,
  generalSponsors,
  historicalSponsor,
  internationalOrgs,
  researchOrgByKey,
  usResearchOrgs,
} from './organizations';
import { TopicWriter, type TitleStyle } from './prose';
import { type Picker, type Random, weightedPicker, zipfPicker } from './random';
import { entryInstant, publicationInstant, publicationYear, yearOf } from './timeline';
import { type Topic, topics } from './topics';
import {
  awkwardFragments,
  benchmarkShares,
  benchmarkTerms,
  foreignTitles,
  givenNames,
  rareModulus,
  rareResidue,
  surnames,
} from './vocabulary';

/**
 * The facts of one record before they are spread over its fields, so that fields agree
 * with each other: the topic drives the words, the organisation the identifiers, the
 * product type the title style, the dates each other.
 */

export type RecordKind =
  | 'article'
  | 'report'
  | 'conference'
  | 'thesis'
  | 'book'
  | 'dataset'
  | 'software'
  | 'patent'
  | 'patent-application'
  | 'video'
  | 'audio'
  | 'presentation';

/** What a product type name means for the generator; names come from the deployment table. */
export function kindOfProductType(productType: string): RecordKind {
  const name = productType.toLowerCase();
  if (name.includes('patent')) return name.includes('application') ? 'patent-application' : 'patent';
  if (/dataset|collection|interactive/.test(name)) return 'dataset';
  if (name.includes('software')) return 'software';
  if (name.includes('video')) return 'video';
  if (name.includes('audio')) return 'audio';
  if (name.includes('presentation')) return 'presentation';
  if (/journal|article/.test(name)) return 'article';
  if (name.includes('conference')) return 'conference';
  if (/thesis|dissertation/.test(name)) return 'thesis';
  if (name.includes('book')) return 'book';
  return 'report';
}

export function styleOfKind(kind: RecordKind): TitleStyle {
  switch (kind) {
    case 'dataset':
      return 'dataset';
    case 'patent':
    case 'patent-application':
      return 'patent';
    case 'video':
    case 'audio':
    case 'presentation':
      return 'media';
    case 'report':
      return 'report';
    default:
      return 'literature';
  }
}

export interface Draft {
  readonly id: string;
  readonly idNumber: number;
  readonly topic: Topic;
  readonly writer: TopicWriter;
  readonly productType: string;
  readonly kind: RecordKind;
  readonly org: ResearchOrg;
  readonly researchOrgs: readonly string[];
  /** DC1: where the dataset lives; undefined for records of other kinds. */
  readonly repository?: DataRepository;
  readonly sponsors: readonly string[];
  readonly contributors: readonly string[];
  readonly published: number;
  readonly entered: number;
  readonly year: number;
  readonly language: string;
  readonly country: string;
  readonly authors: readonly string[];
  readonly title: string;
  readonly description: string;
  readonly fulltext?: string;
  readonly mimeType?: MediaMimeType;
  /** Submitter code: the repository's, else the research organisation's. */
  readonly site: string;
  /** Dataset submission number, used in product_number and site_url. */
  readonly submission: string;
  /** Dataset size in bytes, or null when unknown. */
  readonly sizeBytes: number | null;
}

export interface DraftInput {
  readonly id: number;
  readonly productType: string;
  readonly mimeType?: MediaMimeType;
  readonly fulltextShare: number;
}

const writers = new Map(topics.map((topic) => [topic.name, new TopicWriter(topic)]));
const topicPicker = weightedPicker(topics.map((topic) => [topic, topic.weight] as const));
const topicSponsors = new Map(topics.map((topic) => [topic.name, zipfPicker(topic.sponsors, 1.2)]));
const surnamePicker = zipfPicker(surnames, 0.8);
const givenPicker = zipfPicker(givenNames, 0.7);
const contributorPicker = zipfPicker(contributingOrgs, 0.9);
const authorCount: Picker<number> = weightedPicker([
  [1, 22],
  [2, 20],
  [3, 16],
  [4, 13],
  [5, 10],
  [6, 8],
  [7, 6],
  [8, 5],
]);
const initialsAlphabet = [...'ABCDEFGHJKLMNPRSTW'];

/** Records from abroad: ETDE and INIS contributions. */
const internationalShare = 0.1;

function pickOrg(topic: Topic, random: Random): ResearchOrg {
  if (random.chance(internationalShare)) return random.pick(internationalOrgs);
  if (random.chance(0.8)) return researchOrgByKey(random.pick(topic.organizations));
  return random.pick(usResearchOrgs);
}

function personName(random: Random): [string, string] {
  const surname = surnamePicker.draw(random);
  if (random.chance(0.35)) {
    const first = random.pick(initialsAlphabet);
    return [surname, random.chance(0.5) ? `${first}. ${random.pick(initialsAlphabet)}.` : `${first}.`];
  }
  const given = givenPicker.draw(random);
  return [surname, random.chance(0.4) ? `${given} ${random.pick(initialsAlphabet)}.` : given];
}

function makeAuthors(affiliations: readonly string[], random: Random): string[] {
  const count = authorCount.draw(random);
  const authors: string[] = [];
  // The benchmark surname replaces one author in a fixed share of records.
  const benchmarkAt = random.chance(benchmarkShares.author) ? random.int(0, count - 1) : -1;
  for (let i = 0; i < count; i++) {
    const [drawn, given] = personName(random);
    const surname = i === benchmarkAt ? benchmarkTerms.author : drawn;
    let author = `${surname}, ${given}`;
    if (affiliations.length > 0 && random.chance(0.55)) {
      author += ` [${random.chance(0.8) ? affiliations[0] : random.pick(affiliations)}]`;
    }
    if (random.chance(0.18)) author += ` (ORCID:${orcid(random)})`;
    authors.push(author);
  }
  return authors;
}

function makeSponsors(topic: Topic, org: ResearchOrg, year: number, random: Random): string[] {
  const historical = historicalSponsor(year);
  if (historical) return [historical];
  if (org.country !== 'United States' && random.chance(0.6)) return [];
  const sponsors = [topicSponsors.get(topic.name)!.draw(random)];
  if (random.chance(0.2)) {
    const second = random.chance(0.5) ? random.pick(generalSponsors) : random.pick(topic.sponsors);
    if (!sponsors.includes(second)) sponsors.push(second);
  }
  return sponsors;
}

const descriptionWords = { min: 40, max: 150 } as const;

function makeDescription(draft: { writer: TopicWriter; kind: RecordKind; idNumber: number }, random: Random): string {
  const { writer } = draft;
  const style = styleOfKind(draft.kind);
  // Below the maximum, so that the sentence that reaches the target rarely overshoots it.
  const target = random.int(descriptionWords.min, descriptionWords.max - 15);
  const extras: string[] = [];
  let words = 0;
  const add = (sentence: string, count = writer.lastWordCount) => {
    extras.push(sentence);
    words += count;
  };
  if (draft.idNumber % rareModulus === rareResidue) add(writer.benchmarkSentence('rare', random));
  if (random.chance(benchmarkShares.onePercent)) add(writer.benchmarkSentence('onePercent', random));
  if (random.chance(benchmarkShares.common)) add(writer.benchmarkSentence('common', random));
  if (random.chance(benchmarkShares.nearlyAll)) add(writer.benchmarkSentence('nearlyAll', random));
  if (random.chance(benchmarkShares.phrase)) add(writer.benchmarkSentence('phrase', random));
  if (random.chance(0.02)) {
    const fragment = random.pick(awkwardFragments);
    add(`We also report ${fragment}.`, 3 + fragment.split(' ').length);
  }

  const sentences: string[] = [];
  const opening = writer.opening(style, random);
  if (opening) {
    sentences.push(opening);
    words += writer.lastWordCount;
  }
  while (words < target) {
    const sentence = writer.sentence(random);
    const count = writer.lastWordCount;
    if (words + count > descriptionWords.max && words >= descriptionWords.min) break;
    sentences.push(sentence);
    words += count;
  }
  // Benchmark sentences go anywhere after the opening.
  for (const extra of extras) sentences.splice(random.int(sentences.length > 1 ? 1 : 0, sentences.length), 0, extra);
  return sentences.join(' ');
}

function makeTitle(writer: TopicWriter, kind: RecordKind, language: string, random: Random): string {
  const foreign = foreignTitles[language];
  if (foreign && random.chance(0.6)) return random.pick(foreign);
  const title = writer.title(styleOfKind(kind), random);
  return random.chance(0.01) ? `${title}: ${random.pick(awkwardFragments)}` : title;
}

function makeFulltext(title: string, writer: TopicWriter, random: Random): string {
  return `${title}\n\n${writer.paragraphs(random.int(450, 1300), random).join('\n\n')}`;
}

/** Upstream sizes run from kilobytes to tens of gigabytes, spread evenly on a log scale. */
function datasetSize(random: Random): number {
  return Math.round(Math.pow(10, 4 + random.float() * 6.7));
}

export function makeDraft(input: DraftInput, random: Random): Draft {
  const topic = topicPicker.draw(random);
  const writer = writers.get(topic.name)!;
  const kind = kindOfProductType(input.productType);
  const datasetLike = kind === 'dataset' || kind === 'software';
  const earliest = datasetLike ? 1995 : kind === 'video' || kind === 'audio' || kind === 'presentation' ? 1998 : 1950;
  const year = publicationYear(random, earliest);
  const published = publicationInstant(year, random);
  const entered = entryInstant(published, random);
  const org = pickOrg(topic, random);
  const repository = datasetLike && topic.repository && org.country === 'United States' ? dataRepositoryByKey(topic.repository) : undefined;

  const researchOrgs = repository ? [repository.name, org.name] : [org.name];
  if (random.chance(0.2)) {
    const other = researchOrgByKey(random.pick(topic.organizations)).name;
    if (!researchOrgs.includes(other)) researchOrgs.push(other);
  }
  const language = org.language && random.chance(0.6) ? org.language : 'English';
  const contributors: string[] = [];
  if (random.chance(0.25)) {
    contributors.push(contributorPicker.draw(random));
    if (random.chance(0.2)) {
      const second = contributorPicker.draw(random);
      if (second !== contributors[0]) contributors.push(second);
    }
  }

  const title = makeTitle(writer, kind, language, random);
  const idNumber = input.id;
  return {
    id: String(idNumber),
    idNumber,
    topic,
    writer,
    productType: input.productType,
    kind,
    org,
    researchOrgs,
    repository,
    sponsors: makeSponsors(topic, org, year, random),
    contributors,
    published,
    entered,
    year: yearOf(published),
    language,
    country: org.country,
    // People work at the organisations, not at the repository that holds their data.
    authors: makeAuthors(repository ? researchOrgs.slice(1) : researchOrgs, random),
    title,
    description: makeDescription({ writer, kind, idNumber }, random),
    fulltext: random.chance(input.fulltextShare) ? makeFulltext(title, writer, random) : undefined,
    mimeType: input.mimeType,
    site: repository?.site ?? org.site,
    submission: String(random.int(100, 16999)),
    sizeBytes: datasetLike && random.chance(0.85) ? datasetSize(random) : null,
  };
}
