import type { ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { roleValue } from './record-roles';
import { valuesOf } from './text';

/**
 * What kind of work a record describes, read from `product_type`. The spec leaves the
 * values open (DC1 "not enumerated"), so names are matched by the words they contain,
 * most specific first ("Book Chapter" before "Book", "Journal Article" before "Article").
 */
export const workKinds = [
  'journal-article',
  'book-chapter',
  'book',
  'thesis',
  'conference-paper',
  'patent',
  'report',
  'dataset',
  'software',
  'video',
  'audio',
  'presentation',
  'webpage',
  'other',
] as const;
export type WorkKind = (typeof workKinds)[number];

const kindRules: readonly (readonly [RegExp, WorkKind])[] = [
  [/journal|article/, 'journal-article'],
  [/chapter/, 'book-chapter'],
  [/book|monograph/, 'book'],
  [/thesis|dissertation/, 'thesis'],
  [/conference|proceeding|symposium/, 'conference-paper'],
  [/patent/, 'patent'],
  [/report/, 'report'],
  [/data\s*set|collection/, 'dataset'],
  [/software|code/, 'software'],
  [/video|film|motion picture/, 'video'],
  [/audio|sound|podcast/, 'audio'],
  [/presentation|speech|lecture|slides?\b/, 'presentation'],
  [/interactive|web\s*(site|page)/, 'webpage'],
];

export function workKind(deployment: Deployment, record: ApiRecord): WorkKind {
  const [productType] = valuesOf(roleValue(deployment, record, 'productType'));
  const name = (productType?.trim() || deployment.impliedProductType)?.toLowerCase();
  if (name) return kindRules.find(([pattern]) => pattern.test(name))?.[1] ?? 'other';
  // No product type, and none implied by the catalogue: a journal says "article".
  return valuesOf(roleValue(deployment, record, 'journal')).some((value) => value.trim()) ? 'journal-article' : 'other';
}

/**
 * CSL 1.0.2 types. Audio is `song` (the spec defines it as "an audio recording"), video is
 * `motion_picture`, a presentation is `speech`; a record of unknown kind is `document`,
 * which every style renders with its generic layout.
 */
export const cslTypeOfKind = {
  'journal-article': 'article-journal',
  'book-chapter': 'chapter',
  book: 'book',
  thesis: 'thesis',
  'conference-paper': 'paper-conference',
  patent: 'patent',
  report: 'report',
  dataset: 'dataset',
  software: 'software',
  video: 'motion_picture',
  audio: 'song',
  presentation: 'speech',
  webpage: 'webpage',
  other: 'document',
} as const satisfies Record<WorkKind, string>;
