import type { ApiRecord } from '../deployments/registry';
import { recordSchema } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { generatedRecordsHeader, parseGeneratedIds, recordOriginHeader } from '../formats/extension-headers';
import { parseLinkHeader, type PageLinks } from '../formats/link-header';
import { InvalidResponseError } from './errors';
import { describeIssue, getJson, readJson, type RequestOptions } from './responses';
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
}

export interface DeploymentRequestOptions extends RequestOptions {
  readonly deployment: Deployment;
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

function parseTotal(header: string | null, url: string): number | undefined {
  if (header === null) return undefined;
  if (!/^\s*\d+\s*$/.test(header)) throw new InvalidResponseError(url, `X-Total-Count is "${header}", not a number.`);
  return Number(header);
}

export async function fetchRecordPage(url: string, options: DeploymentRequestOptions): Promise<RecordPage> {
  const response = await getJson(url, options);
  const total = parseTotal(response.headers.get('X-Total-Count'), url);
  // Servers may send relative Link targets; resolve them against the final URL (after redirects).
  const base = response.url || url;
  const links = parseLinkHeader(response.headers.get('Link'), base);
  const records = validateRecords(options.deployment, await readJson(response, url), url);
  return { url, records, total, links, generated: parseGeneratedIds(response.headers.get(generatedRecordsHeader)) };
}

export interface RecordEntry {
  readonly record: ApiRecord;
  /** The server says the record is generated demo data (the local server's X-Record-Origin extension). */
  readonly generated: boolean;
}

/** One record. The spec returns it "in the list structure"; a bare object is tolerated. */
export async function fetchRecord(baseUrl: string, repoId: string, options: DeploymentRequestOptions): Promise<RecordEntry> {
  const url = recordUrl(baseUrl, repoId);
  const response = await getJson(url, options);
  const body = await readJson(response, url);
  const records = validateRecords(options.deployment, Array.isArray(body) ? body : [body], url);
  const [record] = records;
  if (!record) throw new InvalidResponseError(url, 'expected one record, received an empty list.');
  return { record, generated: response.headers.get(recordOriginHeader)?.trim().toLowerCase() === 'generated' };
}

/**
 * Every page of a search, following rel="next" until there is none. Stops if a server
 * links back to a page already seen, so a faulty Link header cannot loop forever.
 */
export async function* followPages(firstUrl: string, options: DeploymentRequestOptions): AsyncGenerator<RecordPage> {
  const seen = new Set<string>();
  let url: string | undefined = firstUrl;
  while (url && !seen.has(url)) {
    seen.add(url);
    options.signal?.throwIfAborted();
    const page: RecordPage = await fetchRecordPage(url, options);
    yield page;
    url = page.links.next;
  }
}
