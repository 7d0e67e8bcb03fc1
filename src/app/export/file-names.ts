import type { Deployment } from '../../deployments/schema';
import { exportFormat, type ExportFormatId } from './export-formats';

/**
 * Download file names carry the deployment, what was exported and the format:
 * `lit-2368548.bib`, `dc-v0.1-123.xml`, `mm-selection-12.csv`, `pat-results-2024-05-01.ris`.
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

export function resultSetFileName(deployment: Deployment, format: ExportFormatId, date = new Date()): string {
  const day = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  return named(deployment, `results-${day}`, format);
}

/** The name for saving what an interrupted download got: `lit-results-2024-05-01-incomplete.csl.json`. */
export function incompleteFileName(fileName: string): string {
  const extension = /(\.csl)?\.[^.]+$/.exec(fileName)?.[0] ?? '';
  return `${fileName.slice(0, fileName.length - extension.length)}-incomplete${extension}`;
}
