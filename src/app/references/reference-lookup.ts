import type { ApiAuth } from '../../client/auth';
import { isAbortError, isTimeout } from '../../client/errors';
import { fetchRecordPage } from '../../client/records';
import { searchUrl } from '../../client/urls';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment, DeploymentKey } from '../../deployments/schema';
import { valuesOf } from '../../formats/text';
import { errorMessage } from '../ui/error-message';
import { assessMatch, doiParam, sameDoi, titleQuery, verdictRank, wholeTextQuery, type MatchAssessment, type Verdict } from './match-score';
import type { ParsedReference } from './reference-input';

/**
 * Each reference looked up in every catalog through its API: the DOI exactly first, else
 * (or when no record has it) the title's words, each candidate scored. A bounded number of
 * requests at a time, stopped by an AbortSignal; a catalog that fails is said per reference.
 */

export interface Catalog {
  readonly deployment: Deployment;
  readonly baseUrl: string;
  readonly auth: ApiAuth | undefined;
}

export interface CatalogMatch {
  readonly catalog: DeploymentKey;
  readonly record: ApiRecord;
  readonly assessment: MatchAssessment;
  readonly via: 'doi' | 'title';
  /** The server says the record is a generated demo record (X-Generated-Records). */
  readonly generated: boolean;
}

/** Best first: by verdict, then confidence. */
export const byStrength = (a: CatalogMatch, b: CatalogMatch) =>
  verdictRank[b.assessment.verdict] - verdictRank[a.assessment.verdict] || b.assessment.confidence - a.assessment.confidence;

/** What the reference's best match makes it; not found when no catalog has a candidate. */
export const verdictOfResult = (result: ReferenceResult): Verdict => result.matches[0]?.assessment.verdict ?? 'not-found';

export interface ReferenceResult {
  readonly reference: ParsedReference;
  /** The best record of each catalog worth showing, best first. */
  readonly matches: CatalogMatch[];
  /** Catalogs that could not be asked, with why. */
  readonly failures: { readonly catalog: DeploymentKey; readonly message: string }[];
}

/** Requests in flight at once: enough to keep a server busy, few enough to share it. */
export const lookupConcurrency = 8;
const candidatesPerSearch = 5;
/** How long one catalog may take to answer one request, as on All catalogs: a server that hangs never holds the run. */
export const lookupTimeoutMs = 15_000;

/** A catalog that did not answer in time; after one, the run asks that catalog no more. */
export class LookupTimeoutError extends Error {
  override readonly name = 'LookupTimeoutError';
  constructor(readonly seconds: number) {
    super(`No answer within ${seconds} second${seconds === 1 ? '' : 's'}.`);
  }
}

async function lookUpIn(
  catalog: Catalog,
  reference: ParsedReference,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<CatalogMatch | undefined> {
  const { deployment, baseUrl, auth } = catalog;
  const ask = async (params: [string, string][]) => {
    try {
      return await fetchRecordPage(searchUrl(baseUrl, params), { deployment, auth, signal, timeoutMs });
    } catch (error) {
      if (isTimeout(error) && !signal.aborted) throw new LookupTimeoutError(Math.round(timeoutMs / 1000));
      throw error;
    }
  };
  const param = doiParam(deployment);
  if (reference.doi && param) {
    const page = await ask([
      [param, reference.doi],
      ['rows', '3'],
    ]);
    const record = page.records.find((candidate) => valuesOf(candidate.doi).some((doi) => sameDoi(doi, reference.doi!)));
    if (record)
      return {
        catalog: deployment.key,
        record,
        assessment: assessMatch(deployment, reference, record),
        via: 'doi',
        generated: page.generated.has(record.repo_id),
      };
  }
  let best: CatalogMatch | undefined;
  const consider = async (query: string) => {
    const page = await ask([
      ['title', query],
      ['rows', String(candidatesPerSearch)],
    ]);
    for (const record of page.records) {
      const candidate: CatalogMatch = {
        catalog: deployment.key,
        record,
        assessment: assessMatch(deployment, reference, record),
        via: 'title',
        generated: page.generated.has(record.repo_id),
      };
      if (!best || byStrength(candidate, best) < 0) best = candidate;
    }
  };
  const query = titleQuery(reference);
  if (query) await consider(query);
  // The title read from the reference finds no record of a like title: it may be read wrong.
  const whole = best?.assessment.facts.title === 'same' || best?.assessment.facts.title === 'close' ? undefined : wholeTextQuery(reference);
  if (whole) await consider(whole);
  return best && best.assessment.verdict !== 'not-found' ? best : undefined;
}

export interface LookupOptions {
  readonly signal: AbortSignal;
  /** Called as each reference is finished (every catalog answered or failed). */
  readonly onResult: (index: number, result: ReferenceResult) => void;
  readonly concurrency?: number;
  /** How long each request may take (lookupTimeoutMs unless told). */
  readonly timeoutMs?: number;
}

/** Looks every reference up in every catalog; resolves when all are done, rejects with an AbortError when stopped. */
export async function lookUpReferences(
  references: readonly ParsedReference[],
  catalogs: readonly Catalog[],
  options: LookupOptions,
): Promise<void> {
  const { signal, onResult, concurrency = lookupConcurrency, timeoutMs = lookupTimeoutMs } = options;
  /** Catalogs that timed out, with what was said: their remaining lookups fail at once, not one timeout each. */
  const gaveUp = new Map<DeploymentKey, string>();
  const pending = references.map(() => catalogs.length);
  const matches = references.map((): CatalogMatch[] => []);
  const failures = references.map((): ReferenceResult['failures'] => []);
  const finish = (index: number) => {
    pending[index]! -= 1;
    if (pending[index] === 0) {
      onResult(index, {
        reference: references[index]!,
        matches: matches[index]!.sort(byStrength),
        failures: failures[index]!,
      });
    }
  };
  // References without anything to look up are finished at once.
  const tasks: [number, Catalog][] = [];
  references.forEach((reference, index) => {
    if (reference.problem || catalogs.length === 0) onResult(index, { reference, matches: [], failures: [] });
    else for (const catalog of catalogs) tasks.push([index, catalog]);
  });
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      signal.throwIfAborted();
      const [index, catalog] = tasks[next++]!;
      const key = catalog.deployment.key;
      const timedOut = gaveUp.get(key);
      if (timedOut !== undefined) {
        failures[index]!.push({ catalog: key, message: timedOut });
        finish(index);
        continue;
      }
      try {
        const match = await lookUpIn(catalog, references[index]!, signal, timeoutMs);
        if (match) matches[index]!.push(match);
      } catch (error) {
        if (isAbortError(error) || signal.aborted) throw error;
        if (error instanceof LookupTimeoutError) {
          const message = `${error.message} It was not asked again in this run.`;
          gaveUp.set(key, message);
          failures[index]!.push({ catalog: key, message });
        } else {
          const { title, detail } = errorMessage(error);
          failures[index]!.push({ catalog: key, message: `${title} ${detail}` });
        }
      }
      finish(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, tasks.length)) }, worker));
  signal.throwIfAborted();
}
