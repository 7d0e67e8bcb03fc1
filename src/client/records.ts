import type { ApiRecord } from '../deployments/registry';
import { recordSchema } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import {
  generatedRecordsHeader,
  parseGeneratedIds,
  parseWorkVersions,
  recordOriginHeader,
  totalWorksHeader,
  workVersionsHeader,
} from '../formats/extension-headers';
import { parseLinkHeader, type PageLinks } from '../formats/link-header';
import { ApiRequestError, InvalidResponseError } from './errors';
import { getText, type RequestOptions } from './http';
import { describeIssue, parseJson, readTotal } from './responses';
import { recordUrl } from './urls';

/** The two endpoints, with every response checked against the deployment's record schema. */

export interface RecordPage {
  /** The URL this page was fetched from. */
  readonly url: string;
  readonly records: readonly ApiRecord[];
  /** X-Total-Count; undefined when the server leaves it out. */
  readonly total: number | undefined;
  /** rel → absolute URL, from the Link header resolved against `url`. */
  readonly links: PageLinks;
  /** The page's generated demo records (the local server's X-Generated-Records extension). */
  readonly generated: ReadonlySet<string>;
  /**
   * With `group=work` on a server that groups (the local server's X-Work-Versions extension):
   * how many records each work of the page has, in the order of `records`, its most complete
   * record first. Undefined where the page is records, ungrouped.
   */
  readonly works?: readonly number[];
  /** How many works the whole result holds, where the server counted them (X-Total-Works). */
  readonly totalWorks?: number;
}

export interface DeploymentRequestOptions extends RequestOptions {
  readonly deployment: Deployment;
  /** The whole exchange ends after this long with a TimeoutError (http.ts). */
  readonly timeoutMs?: number;
}

export function validateRecords(deployment: Deployment, body: unknown, url: string): ApiRecord[] {
  if (!Array.isArray(body)) {
    throw new InvalidResponseError(url, `expected a list of records, received ${body === null ? 'null' : typeof body}.`);
  }
  const schema = recordSchema(deployment);
  return body.map((item, index) => {
    const parsed = schema.safeParse(item);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    throw new InvalidResponseError(url, `${describeIssue(issue, `record ${index + 1}`)}.`);
  });
}

export async function fetchRecordPage(url: string, options: DeploymentRequestOptions): Promise<RecordPage> {
  const answer = await getText(url, options);
  const total = readTotal(answer.headers, url, { strict: true });
  // Servers may send relative Link targets; resolve them against the final URL (after redirects).
  const links = parseLinkHeader(answer.headers.get('Link'), answer.url);
  const records = validateRecords(options.deployment, parseJson(answer, url), url);
  const works = parseWorkVersions(answer.headers.get(workVersionsHeader), records.length);
  const totalWorks = works && readCount(answer.headers.get(totalWorksHeader));
  return {
    url,
    records,
    total,
    links,
    generated: parseGeneratedIds(answer.headers.get(generatedRecordsHeader)),
    ...(works && { works }),
    ...(totalWorks !== undefined && { totalWorks }),
  };
}

const readCount = (header: string | null) => (header !== null && /^\s*\d{1,15}\s*$/.test(header) ? Number(header) : undefined);

/** The extension parameter that asks a server to list each work once with its versions (docs/extensions.md). */
export const groupByWork = ['group', 'work'] as const;

/** The same URL without `group` (a page of records, as the spec defines it), every other parameter as written. */
export function withoutGrouping(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const parts = url.slice(at + 1).split('&');
  const kept = parts.filter((part) => part.split('=')[0] !== groupByWork[0]);
  if (kept.length === parts.length) return url;
  return kept.length ? `${url.slice(0, at)}?${kept.join('&')}` : url.slice(0, at);
}

/** Servers (by their record-list URL) that refused `group`: asked without it for the rest of the session. */
const refusesGrouping = new Set<string>();
const listOf = (url: string) => url.split('?')[0]!;

/**
 * A page asked for with `group=work`: as the server sends it, grouped where the server
 * groups (`works`) and as records where it ignores the parameter. A server that refuses it
 * (the spec's 400 for a bad request) is asked again without it, and then not asked with it
 * again; a 400 the same request without `group` gets too is that search's own error.
 */
export async function fetchWorksPage(url: string, options: DeploymentRequestOptions): Promise<RecordPage> {
  const plain = withoutGrouping(url);
  if (plain === url || refusesGrouping.has(listOf(url))) return fetchRecordPage(plain, options);
  try {
    return await fetchRecordPage(url, options);
  } catch (error) {
    if (!(error instanceof ApiRequestError) || error.status !== 400) throw error;
    const page = await fetchRecordPage(plain, options);
    refusesGrouping.add(listOf(url));
    return page;
  }
}

export interface RecordEntry {
  readonly record: ApiRecord;
  /** The server says the record is generated demo data (the local server's X-Record-Origin extension). */
  readonly generated: boolean;
}

/** One record. The spec returns it "in the list structure"; a bare object is tolerated. */
export async function fetchRecord(baseUrl: string, repoId: string, options: DeploymentRequestOptions): Promise<RecordEntry> {
  const url = recordUrl(baseUrl, repoId);
  const answer = await getText(url, options);
  const body = parseJson(answer, url);
  const records = validateRecords(options.deployment, Array.isArray(body) ? body : [body], url);
  const [record] = records;
  if (!record) throw new InvalidResponseError(url, 'expected one record, received an empty list.');
  return { record, generated: answer.headers.get(recordOriginHeader)?.trim().toLowerCase() === 'generated' };
}
