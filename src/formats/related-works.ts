import { z } from 'zod';
import type { ApiRecord } from '../deployments/registry';
import type { Deployment, FieldRole } from '../deployments/schema';
import { knownValues } from './known-values';
import { roleFields } from './record-roles';

/**
 * The upstream's related identifiers as typed relations. Each value is `TYPE; Relation; value`
 * ("DOI; IsReferencedBy; 10.1103/PhysRevLett.118.265001"), DataCite's relation types; a
 * `CURATED` value carries, as JSON, what the upstream knows of that related work: its title,
 * authors, journal, and the ids of its own records that relate to it the same way.
 */

export interface RelatedReference {
  readonly title?: string;
  readonly authors?: string;
  readonly journal?: string;
  readonly volume?: string;
  readonly issue?: string;
  readonly year?: number;
  /** The publication date as the upstream writes it. */
  readonly published?: string;
}

export interface RelatedWork {
  /** DataCite's relation type, as the record writes it ("IsReferencedBy"). */
  readonly relation: string;
  /** The relation for people: "Is referenced by". */
  readonly label: string;
  /** "DOI", "URL", … */
  readonly identifierType: string;
  readonly identifier: string;
  readonly reference?: RelatedReference;
  /** Other records of the upstream that relate to the same work (this record left out). */
  readonly recordIds: readonly string[];
}

const curatedSchema = z.object({
  related_identifier: z.string(),
  related_identifier_type: z.string().optional(),
  osti_ids: z.array(z.union([z.number().int(), z.string()])).optional(),
  title: z.string().optional(),
  authors: z.string().optional(),
  source_name: z.array(z.string()).optional(),
  publication_date: z.string().optional(),
  optional_data_json_string: z.array(z.string()).optional(),
});

const optionalDataSchema = z.object({ journalVolume: z.string().optional(), journalIssue: z.string().optional() }).partial();

/** "IsReferencedBy" → "Is referenced by". */
export function relationLabel(relation: string): string {
  const words = relation.split(/(?=[A-Z])/).filter(Boolean);
  return words.map((word, index) => (index === 0 ? word : word.toLowerCase())).join(' ');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function referenceOf(curated: z.infer<typeof curatedSchema>): RelatedReference {
  const optional = optionalDataSchema.safeParse(parseJson(curated.optional_data_json_string?.[0] ?? ''));
  const year = Number(curated.publication_date?.slice(0, 4));
  return {
    title: curated.title,
    authors: curated.authors,
    journal: curated.source_name?.[0],
    volume: optional.success ? optional.data.journalVolume : undefined,
    issue: optional.success ? optional.data.journalIssue : undefined,
    year: Number.isInteger(year) && year > 0 ? year : undefined,
    published: curated.publication_date,
  };
}

export function relatedWorks(value: unknown, ownId?: string): RelatedWork[] {
  const works = new Map<string, RelatedWork>();
  const keyOf = (relation: string, identifier: string) => `${relation}\u0000${identifier.toLowerCase()}`;
  for (const entry of knownValues(value)) {
    // Only the first two separators: a curated value's JSON holds "; " of its own.
    const parts = /^([^;]*);([^;]*);([\s\S]*)$/.exec(entry);
    const [type, relation, content] = (parts?.slice(1) ?? []).map((part) => part.trim());
    if (!type || !relation || !content) continue;
    if (type.toUpperCase() !== 'CURATED') {
      const key = keyOf(relation, content);
      if (!works.has(key))
        works.set(key, { relation, label: relationLabel(relation), identifierType: type, identifier: content, recordIds: [] });
      continue;
    }
    const curated = curatedSchema.safeParse(parseJson(content));
    if (!curated.success) continue;
    const key = keyOf(relation, curated.data.related_identifier);
    const known = works.get(key);
    const recordIds = [...new Set((curated.data.osti_ids ?? []).map(String))].filter((id) => id !== ownId);
    works.set(key, {
      relation,
      label: relationLabel(relation),
      identifierType: known?.identifierType ?? curated.data.related_identifier_type ?? 'DOI',
      identifier: known?.identifier ?? curated.data.related_identifier,
      reference: referenceOf(curated.data),
      recordIds,
    });
  }
  return [...works.values()];
}

/**
 * A related work the upstream describes as a record of a catalog with journal fields, so it
 * can be cited like any record: the catalog's field roles decide where each part goes. None
 * for a work without a curated title.
 */
export function workAsRecord(work: RelatedWork, catalog: Deployment): ApiRecord | undefined {
  const reference = work.reference;
  if (!reference?.title) return undefined;
  const doi = work.identifierType.toUpperCase() === 'DOI' ? work.identifier.replace(/^https?:\/\/(dx\.)?doi\.org\//i, '') : undefined;
  const parts: readonly (readonly [FieldRole, unknown])[] = [
    ['title', reference.title],
    [
      'authors',
      reference.authors
        ?.split(';')
        .map((author) => author.trim())
        .filter(Boolean),
    ],
    ['published', reference.published],
    ['journal', reference.journal],
    ['volume', reference.volume],
    ['issue', reference.issue],
    ['doi', doi && `https://doi.org/${doi}`],
  ];
  const record: ApiRecord = { repo_id: work.identifier };
  for (const [role, value] of parts) {
    const field = roleFields(catalog, role)[0];
    if (field && value !== undefined && value !== '') record[field] = value;
  }
  return record;
}
