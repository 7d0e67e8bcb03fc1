import { deployments, type ApiRecord } from '../../deployments/registry';
import type { DeploymentKey } from '../../deployments/schema';
import { knownValues } from '../../formats/known-values';
import { bareDoi } from '../../formats/text';
import { formatNumber } from '../ui/format';
import type { CatalogRecords } from './found-file';
import type { Verdict } from './match-score';
import { verdictOfResult, type ReferenceResult } from './reference-lookup';

/**
 * What a check's results add up to: the references grouped by verdict, the found records of
 * each catalog, the catalogs that could not be asked, and the sentence the status line says.
 */

export type Run =
  | { readonly state: 'idle' }
  | { readonly state: 'reading' }
  | { readonly state: 'checking'; readonly total: number }
  | { readonly state: 'done' }
  | { readonly state: 'stopped' };

export const verdictGroups: readonly { verdict: Verdict; title: string; counted: string }[] = [
  { verdict: 'found', title: 'Found', counted: 'found' },
  { verdict: 'probable', title: 'Probably (check)', counted: 'probably' },
  { verdict: 'related', title: 'Not the same work (a related record is held)', counted: 'related only' },
  { verdict: 'not-found', title: 'Not found', counted: 'not found' },
];

export const plural = (count: number, word: string) => `${formatNumber(count)} ${word}${count === 1 ? '' : 's'}`;

export interface CheckSummary {
  readonly finished: readonly ReferenceResult[];
  /** Each result's place in the list, its key: a result arriving re-renders only itself. */
  readonly positions: ReadonlyMap<ReferenceResult, number>;
  readonly byVerdict: ReadonlyMap<Verdict, readonly ReferenceResult[]>;
  readonly foundGroups: readonly CatalogRecords[];
  /** A catalog that cannot be asked, said once for the run, not beside every reference. */
  readonly unreachable: ReadonlyMap<DeploymentKey, { readonly count: number; readonly message: string }>;
  readonly status: string;
}

export function summarizeCheck(results: readonly (ReferenceResult | undefined)[], run: Run): CheckSummary {
  const finished = results.filter((result): result is ReferenceResult => result !== undefined);
  const positions = new Map(results.flatMap((result, index) => (result ? [[result, index] as const] : [])));
  const byVerdict = new Map<Verdict, ReferenceResult[]>(verdictGroups.map(({ verdict }) => [verdict, []]));
  for (const result of finished) byVerdict.get(verdictOfResult(result))!.push(result);
  const foundGroups = foundWorks(byVerdict.get('found')!);
  const unreachable = new Map<DeploymentKey, { count: number; message: string }>();
  for (const result of finished) {
    for (const failure of result.failures) {
      const seen = unreachable.get(failure.catalog);
      unreachable.set(failure.catalog, { count: (seen?.count ?? 0) + 1, message: seen?.message ?? failure.message });
    }
  }
  return { finished, positions, byVerdict, foundGroups, unreachable, status: statusOf(finished.length, results.length, byVerdict, run) };
}

/**
 * The found works of each catalog, one entry per work: two references to one work, or one
 * work a second catalog also holds (the same DOI), are one entry, in the first catalog's group.
 */
export function foundWorks(found: readonly ReferenceResult[]): CatalogRecords[] {
  const seen = new Set<string>();
  const byCatalog = new Map<DeploymentKey, { records: ApiRecord[]; generated: Set<string> }>();
  for (const result of found) {
    const match = result.matches[0];
    if (!match || match.assessment.verdict !== 'found') continue;
    const keys = [
      `${match.catalog}\u0000${match.record.repo_id}`,
      ...knownValues(match.record.doi).map((doi) => `doi\u0000${bareDoi(doi).toLowerCase()}`),
    ];
    if (keys.some((key) => seen.has(key))) continue;
    for (const key of keys) seen.add(key);
    const group = byCatalog.get(match.catalog) ?? { records: [], generated: new Set<string>() };
    byCatalog.set(match.catalog, group);
    group.records.push(match.record);
    if (match.generated) group.generated.add(match.record.repo_id);
  }
  return deployments.flatMap((deployment) => {
    const group = byCatalog.get(deployment.key);
    return group ? [{ deployment, records: group.records, generated: group.generated }] : [];
  });
}

function statusOf(finished: number, listed: number, byVerdict: ReadonlyMap<Verdict, readonly ReferenceResult[]>, run: Run): string {
  const counts = verdictGroups.map(({ verdict, counted }) => `${formatNumber(byVerdict.get(verdict)!.length)} ${counted}`).join(', ');
  // Announced at each tenth of the run and at its end, not at every reference.
  const total = run.state === 'checking' ? run.total : listed;
  const step = Math.max(1, Math.ceil(total / 10));
  const announced = finished === total ? finished : finished - (finished % step);
  switch (run.state) {
    case 'reading':
      return 'Reading the list…';
    case 'checking':
      return `Checked ${formatNumber(announced)} of ${plural(total, 'reference')}…`;
    case 'stopped':
      return `Stopped after ${plural(finished, 'reference')}: ${counts}.`;
    case 'done':
      return `Checked ${plural(finished, 'reference')}: ${counts}.`;
    case 'idle':
      return '';
  }
}
