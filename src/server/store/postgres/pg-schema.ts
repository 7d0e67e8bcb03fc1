import { searchColumns, type Deployment, type SearchColumn } from '../../../deployments/schema';
import { searchModel } from '../../../deployments/search-model';
import { modelDigest } from '../model-digest';

/**
 * The PostgreSQL layout, one table per deployment (each has its own id space): the record
 * as JSON text, a column per sortable or date-bounded field of the search model, its
 * exact-match keys and its facet values (`name:value`) as arrays, and one
 * weighted tsvector per search column plus their concatenation for whole-record searches.
 *
 * Text search: `records_english` is English Snowball stemming after unaccent, without a
 * stop-word list, so "the" is a word as it is to the SQLite store's FTS5 tokenizer.
 * ts_rank has four weights, so the nine search columns share them: a title match counts
 * most, then authors and subjects, then description and bibliographic text, then the rest.
 */

/** The layout's version (and of the text it indexes, formats/fold-text.ts) and what the deployment table asks of it: an older database must be rebuilt. */
export const pgSchemaVersion = () => `6.${modelDigest()}`;

export const textConfig = 'records_english';

export const columnWeightClass: Record<SearchColumn, 'A' | 'B' | 'C' | 'D'> = {
  title: 'A',
  authors: 'B',
  subjects: 'B',
  description: 'C',
  biblio: 'C',
  sponsor: 'D',
  research: 'D',
  contributing: 'D',
  fulltext: 'D',
};

/** ts_rank's weights for D, C, B and A. */
export const rankWeights = '{0.1, 0.2, 0.4, 1.0}';

export const pgTable = (deployment: Deployment) => `${deployment.key.toLowerCase()}_records`;
export const tsvColumn = (column: SearchColumn) => `tsv_${column}`;

export const setupSql = `
  CREATE EXTENSION IF NOT EXISTS unaccent;
  DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_ts_dict WHERE dictname = 'records_english_stem') THEN
      CREATE TEXT SEARCH DICTIONARY records_english_stem (TEMPLATE = snowball, Language = english);
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = '${textConfig}') THEN
      CREATE TEXT SEARCH CONFIGURATION ${textConfig} (COPY = simple);
      ALTER TEXT SEARCH CONFIGURATION ${textConfig}
        ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part, numword, numhword, hword_numpart
        WITH unaccent, records_english_stem;
    END IF;
  END $$;
  CREATE TABLE IF NOT EXISTS meta (key text PRIMARY KEY, value text NOT NULL);
`;

export function createTableSql(deployment: Deployment): string {
  const t = pgTable(deployment);
  const tsvs = searchColumns.map((column) => `${tsvColumn(column)} tsvector NOT NULL`).join(',\n    ');
  const ordered = searchModel(deployment).ordered.map(({ column }) => column);
  return `
  CREATE TABLE IF NOT EXISTS ${t} (
    id bigserial PRIMARY KEY,
    repo_id text COLLATE "C" NOT NULL UNIQUE,
    ${ordered.map((column) => `${column} text COLLATE "C",`).join('\n    ')}
    doc text NOT NULL,
    fulltext text,
    keys text[] NOT NULL DEFAULT '{}',
    facets text[] NOT NULL DEFAULT '{}',
    ${tsvs},
    tsv tsvector NOT NULL
  );
  -- Kept in the row, compressed if need be, not stored apart with the record's text:
  -- facets read the facet values of every matching row.
  ALTER TABLE ${t} ALTER COLUMN facets SET STORAGE MAIN;
  CREATE INDEX IF NOT EXISTS ${t}_tsv ON ${t} USING gin (tsv);
  CREATE INDEX IF NOT EXISTS ${t}_keys ON ${t} USING gin (keys);
  ${ordered.map((column) => `CREATE INDEX IF NOT EXISTS ${t}_by_${column} ON ${t} (${column} NULLS LAST, repo_id);`).join('\n  ')}
  ${ordered.map((column) => `CREATE INDEX IF NOT EXISTS ${t}_by_${column}_desc ON ${t} (${column} DESC NULLS LAST, repo_id DESC);`).join('\n  ')}
  `;
}

/** One exact-match key as the array element it is stored as. */
export const keyElement = (name: string, value: string) => `${name}:${value}`;
