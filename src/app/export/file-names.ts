import type { Deployment } from '../../deployments/schema';
import { describeSearch } from '../../formats/search-description';
import { exportFormat, type ExportFormatId } from './export-formats';

/**
 * Download file names carry the deployment, what was exported and the format:
 * `lit-2368548.bib`, `dc-v0.1-123.xml`, `mm-selection-12.csv`, `lit-solar-cell-2024-05-01.bib`.
 */

/** An identifier as a safe part of a file name on every system. */
export function fileNamePart(text: string): string {
  const safe = text
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+|[._]+$/g, '')
    .slice(0, 100);
  return safe || 'record';
}

function named(deployment: Deployment, what: string, format: ExportFormatId): string {
  return `${deployment.slug}-${what}.${exportFormat(format).extension}`;
}

export function recordFileName(deployment: Deployment, repoId: string, format: ExportFormatId): string {
  return named(deployment, fileNamePart(repoId), format);
}

export function selectionFileName(deployment: Deployment, count: number, format: ExportFormatId): string {
  return named(deployment, `selection-${count}`, format);
}

/** Longest part of a result set's file name that names its search, so the whole name stays well under file systems' limits. */
const searchPartLength = 60;

/**
 * The search as a file name part, in the words its filter chips use: `solar-cell`,
 * `solar-cell-product-type-journal-article`; letters and digits only, at most 60 characters
 * (cut at a word), empty for a search with no criteria.
 */
export function searchNamePart(deployment: Deployment, entries: readonly (readonly [string, string])[]): string {
  const described = describeSearch(deployment, entries);
  if (described === 'All records') return '';
  const words = described
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let part = '';
  for (const word of words) {
    const next = part ? `${part}-${word}` : word;
    if (next.length > searchPartLength) break;
    part = next;
  }
  return part || (words[0] ?? '').slice(0, searchPartLength);
}

/** A whole result set: named by its search (the API URL's criteria) and the day, `lit-solar-cell-2024-05-01.bib`. */
export function resultSetFileName(deployment: Deployment, format: ExportFormatId, date = new Date(), searchUrl?: string): string {
  const day = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  let entries: [string, string][] = [];
  try {
    if (searchUrl) entries = [...new URL(searchUrl, 'http://localhost').searchParams];
  } catch {
    // An unreadable URL names the file by the day alone.
  }
  const search = searchNamePart(deployment, entries);
  return named(deployment, `${search || 'results'}-${day}`, format);
}

/** The name for saving what an interrupted download got: `lit-results-2024-05-01-incomplete.csl.json`. */
export function incompleteFileName(fileName: string): string {
  const extension = /(\.csl)?\.[^.]+$/.exec(fileName)?.[0] ?? '';
  return `${fileName.slice(0, fileName.length - extension.length)}-incomplete${extension}`;
}
