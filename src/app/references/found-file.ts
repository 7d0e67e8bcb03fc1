import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { recordsToBibtex } from '../../formats/bibtex';
import { cslItemsToJson, cslJsonClosing, cslJsonOpening, recordsToCsl } from '../../formats/csl';
import type { GeneratedIds } from '../../formats/generated-mark';
import { recordsToRis } from '../../formats/ris';

/**
 * The found records of every catalog as one file, written by the project's own format
 * writers. Record IDs are per catalog, so BibTeX keys carry the catalog (`records_dc1_1367164`)
 * and never collide.
 */

export const foundFormats = [
  { id: 'bibtex', label: 'BibTeX', extension: 'bib', mimeType: 'application/x-bibtex' },
  { id: 'ris', label: 'RIS', extension: 'ris', mimeType: 'application/x-research-info-systems' },
  { id: 'csl-json', label: 'CSL-JSON', extension: 'csl.json', mimeType: 'application/vnd.citationstyles.csl+json' },
] as const;
export type FoundFormat = (typeof foundFormats)[number]['id'];

export interface CatalogRecords {
  readonly deployment: Deployment;
  /** One per work. */
  readonly records: readonly ApiRecord[];
  /** Which of them the catalog said are generated demo records: each file says so of each. */
  readonly generated: GeneratedIds;
}

export function foundFile(groups: readonly CatalogRecords[], format: FoundFormat): { blob: Blob; fileName: string } {
  const spec = foundFormats.find((candidate) => candidate.id === format)!;
  const count = groups.reduce((sum, group) => sum + group.records.length, 0);
  let text: string;
  if (format === 'bibtex')
    text = groups.map(({ deployment, records, generated }) => recordsToBibtex(records, `records_${deployment.slug}`, generated)).join('\n');
  else if (format === 'ris')
    text = groups.map(({ deployment, records, generated }) => recordsToRis(deployment, records, generated)).join('');
  else {
    const body = cslItemsToJson(groups.flatMap(({ deployment, records, generated }) => recordsToCsl(deployment, records, generated)));
    text = body ? cslJsonOpening + body + cslJsonClosing : '[]\n';
  }
  return { blob: new Blob([text], { type: `${spec.mimeType}; charset=utf-8` }), fileName: `references-found-${count}.${spec.extension}` };
}
