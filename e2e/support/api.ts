/** Direct calls to the API under test, to choose test data and to compare with the UI. */
import type { ApiRecord } from '../../src/deployments/registry';
import type { Deployment } from '../../src/deployments/schema';
import { parseWorkVersions, workVersionsHeader } from '../../src/formats/extension-headers';
import { parseLinkHeader, type PageLinks } from '../../src/formats/link-header';
import { url } from './browser';

export interface ListResponse {
  status: number;
  total: number;
  links: PageLinks;
  records: ApiRecord[];
}

export async function apiList(deployment: Deployment, params: Record<string, string | number> = {}): Promise<ListResponse> {
  const target = new URL(url(`${deployment.basePath}/records`));
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, String(value));
  const response = await fetch(target, { headers: { accept: 'application/json' } });
  const body = (await response.json()) as unknown;
  return {
    status: response.status,
    total: Number(response.headers.get('x-total-count') ?? NaN),
    links: parseLinkHeader(response.headers.get('link'), target.href),
    records: response.ok ? (body as ApiRecord[]) : [],
  };
}

/**
 * The results the app shows for a search: the API's page asked with `group=work`, as the app
 * asks, one record per work (its leading record), in order.
 */
export async function apiWorkLeads(deployment: Deployment, params: Record<string, string | number> = {}): Promise<string[]> {
  const target = new URL(url(`${deployment.basePath}/records`));
  for (const [name, value] of Object.entries({ ...params, group: 'work' })) target.searchParams.set(name, String(value));
  const response = await fetch(target, { headers: { accept: 'application/json' } });
  const records = (await response.json()) as ApiRecord[];
  const counts = parseWorkVersions(response.headers.get(workVersionsHeader), records.length);
  if (!counts) throw new Error(`${target.href} did not answer grouped`);
  const leads: string[] = [];
  let at = 0;
  for (const count of counts) {
    leads.push(String(records[at]!.repo_id));
    at += count;
  }
  return leads;
}

export interface ApiError {
  statusCode: number;
  statusMessage: string;
  errorDescription: string;
}

/** The Error object the server answers an API path with (the path must fail). */
export async function apiError(path: string): Promise<{ status: number; error: ApiError }> {
  const response = await fetch(url(path), { headers: { accept: 'application/json' } });
  if (response.ok) throw new Error(`${path} unexpectedly answered ${response.status}`);
  return { status: response.status, error: (await response.json()) as ApiError };
}

export async function apiRecord(deployment: Deployment, id: string): Promise<ApiRecord> {
  const response = await fetch(url(`${deployment.basePath}/records/${encodeURIComponent(id)}`), {
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`record ${id}: ${response.status}`);
  const body = (await response.json()) as ApiRecord | ApiRecord[];
  return Array.isArray(body) ? body[0]! : body;
}

export type RecordLink = { rel: string; href: string };

export function linksOf(record: ApiRecord): RecordLink[] {
  return Array.isArray(record.links) ? (record.links as RecordLink[]) : [];
}

export function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

const stopWords = new Set(['about', 'after', 'their', 'there', 'these', 'which', 'while', 'where', 'under', 'using', 'other', 'study']);

/**
 * A one-word query with at least `minTotal` matches (so paging has a first, a middle and
 * a last page), taken from the deployment's own titles.
 */
export async function findSearchTerm(deployment: Deployment, minTotal = 41): Promise<{ term: string; total: number }> {
  const sample = await apiList(deployment, { rows: 200 });
  const counts = new Map<string, number>();
  for (const record of sample.records) {
    const words = new Set(
      String(record.title ?? '')
        .toLowerCase()
        .match(/\p{L}{5,}/gu) ?? [],
    );
    for (const word of words) if (!stopWords.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const candidates = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 25);
  let best: { term: string; total: number } | undefined;
  for (const [term] of candidates) {
    const { total } = await apiList(deployment, { q: term, rows: 1 });
    if (total >= minTotal) return { term, total };
    if (!best || total > best.total) best = { term, total };
  }
  throw new Error(`no title word of ${deployment.key} matches ${minTotal} records (best: ${JSON.stringify(best)})`);
}

/** A record whose links carry every rel the deployment promises, with http(s) targets. */
export async function findLinkedRecord(deployment: Deployment): Promise<ApiRecord> {
  const { records } = await apiList(deployment, { rows: 200 });
  const complete = (record: ApiRecord) =>
    !isEmpty(record.title) &&
    deployment.linkRels.every((rel) => linksOf(record).some((link) => link.rel === rel && /^(https?:\/\/|\/)/.test(link.href)));
  const found = records.find((record) => complete(record) && !isEmpty(record.authors)) ?? records.find(complete);
  if (!found) throw new Error(`no ${deployment.key} record among 200 has links ${deployment.linkRels.join(', ')}`);
  return found;
}
