import type { ApiRecord } from '../deployments/registry';
import { recordSchema } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { generatedRecordsHeader, parseGeneratedIds, recordOriginHeader } from '../formats/extension-headers';
import { parseLinkHeader, type PageLinks } from '../formats/link-header';
import { InvalidResponseError } from './errors';
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

export async function fetchRecordPage(url: string, options: DeploymentRequestOptions): Promise<RecordPage> {
  const answer = await getText(url, options);
  const total = readTotal(answer.headers, url, { strict: true });
  // Servers may send relative Link targets; resolve them against the final URL (after redirects).
  const links = parseLinkHeader(answer.headers.get('Link'), answer.url);
  const records = validateRecords(options.deployment, parseJson(answer, url), url);
  return { url, records, total, links, generated: parseGeneratedIds(answer.headers.get(generatedRecordsHeader)) };
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
