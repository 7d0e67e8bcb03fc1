import { z } from 'zod';
import type { ApiRecord } from '../deployments/registry';
import type { Deployment, FieldRole } from '../deployments/schema';
import { etAlAuthor } from './authors';
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
  /** "Surname, Given; Surname, Given" as a reader writes them. */
  readonly authors?: string;
  /**
   * The upstream keeps at most three authors of a curated work (`author1…author3`), so a list
   * of three may be cut short: it is cited with "et al." ("and others" in BibTeX).
   */
  readonly authorsTruncated?: boolean;
  /** What the upstream says the work is (Crossref's type: "journal" for a journal article). */
  readonly kind?: string;
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
  // An array of one JSON string in most records, the JSON string itself in some.
  optional_data_json_string: z.union([z.array(z.string()), z.string()]).optional(),
});

const optionalDataSchema = z
  .object({ journalVolume: z.string(), journalIssue: z.string(), crossrefProductType: z.string() })
  .catchall(z.unknown())
  .partial();

/** The most authors the upstream keeps of a curated work. */
export const curatedAuthorsKept = 3;

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

/** `author1LastName`, `author1FirstName`, … as "Surname, Given", in their order. */
function numberedAuthors(data: Record<string, unknown>): string[] {
  const names: string[] = [];
  for (let n = 1; typeof data[`author${n}LastName`] === 'string'; n += 1) {
    const family = String(data[`author${n}LastName`]).trim();
    const given = typeof data[`author${n}FirstName`] === 'string' ? String(data[`author${n}FirstName`]).trim() : '';
    if (family) names.push(given ? `${family}, ${given}` : family);
  }
  return names;
}

function referenceOf(curated: z.infer<typeof curatedSchema>): RelatedReference {
  const stored = curated.optional_data_json_string;
  const optional = optionalDataSchema.safeParse(parseJson((Array.isArray(stored) ? stored[0] : stored) ?? ''));
  const data = optional.success ? optional.data : {};
  const year = Number(curated.publication_date?.slice(0, 4));
  const listed = (curated.authors ?? '')
    .split(';')
    .map((name) => name.trim())
    .filter(Boolean);
  // The authors string sometimes keeps fewer names than the numbered fields beside it.
  const numbered = numberedAuthors(data);
  const authors = numbered.length > listed.length ? numbered : listed;
  return {
    title: curated.title,
    authors: authors.length ? authors.join('; ') : undefined,
    ...(authors.length >= curatedAuthorsKept && { authorsTruncated: true }),
    ...(data.crossrefProductType && { kind: data.crossrefProductType }),
    journal: curated.source_name?.[0],
    volume: data.journalVolume,
    issue: data.journalIssue,
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
 * can be cited like any record, as what it is (a journal article with its journal, volume and
 * issue): the catalog's field roles decide where each part goes. An author list that may be
 * cut short ends in `etAlAuthor`. None for a work without a curated title.
 */
export function workAsRecord(work: RelatedWork, catalog: Deployment): ApiRecord | undefined {
  const reference = work.reference;
  if (!reference?.title) return undefined;
  const doi = work.identifierType.toUpperCase() === 'DOI' ? work.identifier.replace(/^https?:\/\/(dx\.)?doi\.org\//i, '') : undefined;
  const authors = reference.authors
    ?.split(';')
    .map((author) => author.trim())
    .filter(Boolean);
  // A journal article when the upstream says so, or names the journal it is in.
  const isArticle = reference.kind === 'journal' || (!reference.kind && Boolean(reference.journal));
  const parts: readonly (readonly [FieldRole, unknown])[] = [
    ['title', reference.title],
    ['authors', authors && reference.authorsTruncated ? [...authors, etAlAuthor] : authors],
    ['productType', isArticle ? 'Journal Article' : undefined],
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
