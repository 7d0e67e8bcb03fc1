import { singleClient } from './http-client';
import type { Child } from './processes';
import { summarize, type Summary } from './stats';

/**
 * Floods of one request kind (issue: admission by measured cost): 8 clients each looping one
 * kind — broad facets, facets without a query, a `repo_id` beside phrases, 1,000-row XML
 * pages — while a normal user, already connected, alternates a one-word search and a record.
 * Target: the user's search and record p99 ≤ 100 ms during every flood.
 */

export interface FloodKind {
  readonly name: string;
  readonly accept?: string;
  readonly path: (base: string, i: number) => string;
}

const words = ['temperature', 'plasma', 'solar', 'wind', 'laser', 'sensor', 'carbon', 'energy'];

export const floodKinds: readonly FloodKind[] = [
  { name: 'broad facets', path: (base, i) => `${base}/facets?q=${words[i % words.length]}` },
  { name: 'facets without a query', path: (base, i) => `${base}/facets?facet_offset=${i % 3}` },
  {
    name: 'repo_id + phrases',
    path: (base, i) =>
      `${base}/records?repo_id=${50_000_001 + (i % 500)}&q=${encodeURIComponent(`"the ${words[i % words.length]} of" OR "of the data"`)}`,
  },
  { name: '1,000-row XML pages', accept: 'application/xml', path: (base, i) => `${base}/records?rows=1000&page=${1 + (i % 20)}` },
];

type Log = (line: string) => void;

function tally(statuses: Record<string, number>, status: string | number) {
  statuses[status] = (statuses[status] ?? 0) + 1;
}

/** 8 clients looping `kind` for `seconds`; the normal user's search and record latencies meanwhile. */
export async function flood(server: Child, base: string, kind: FloodKind, seconds: number, log: Log) {
  log(`flood: 8 clients looping ${kind.name}; a user's searches and records meanwhile`);
  const until = performance.now() + seconds * 1000;
  const attackers = Array.from({ length: 8 }, async (_, n) => {
    const client = singleClient(kind.accept);
    const statuses: Record<string, number> = {};
    const samples: number[] = [];
    for (let i = n; performance.now() < until; i += 8) {
      try {
        const response = await client.get(server.url + kind.path(base, i), 30_000);
        tally(statuses, response.status);
        samples.push(response.ms);
      } catch {
        tally(statuses, 'error');
      }
    }
    client.close();
    return { statuses, samples };
  });
  const user = singleClient();
  await user.get(`${server.url}${base}/records?rows=1`);
  const search: number[] = [];
  const record: number[] = [];
  const userStatuses: Record<string, number> = {};
  for (let i = 0; performance.now() < until; i++) {
    const isSearch = i % 2 === 0;
    const path = isSearch
      ? `${base}/records?q=${words[(i >> 1) % words.length]}&rows=20`
      : `${base}/records/${50_000_001 + ((i * 97) % 5000)}`;
    try {
      const response = await user.get(server.url + path, 30_000);
      tally(userStatuses, response.status);
      if (response.status === 200) (isSearch ? search : record).push(response.ms);
    } catch {
      tally(userStatuses, 'error');
    }
  }
  user.close();
  const runs = await Promise.all(attackers);
  const statuses: Record<string, number> = {};
  for (const run of runs) for (const [status, count] of Object.entries(run.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  const result: {
    kind: string;
    search: Summary;
    record: Summary;
    userStatuses: Record<string, number>;
    attack: { latency: Summary; statuses: Record<string, number> };
  } = {
    kind: kind.name,
    search: summarize(search),
    record: summarize(record),
    userStatuses,
    attack: { latency: summarize(runs.flatMap((run) => run.samples)), statuses },
  };
  log(
    `  user search p50 ${result.search.p50} ms, p99 ${result.search.p99} ms; record p50 ${result.record.p50} ms, p99 ${result.record.p99} ms; user statuses ${JSON.stringify(userStatuses)}; attackers ${JSON.stringify(statuses)}, p50 ${result.attack.latency.p50} ms`,
  );
  return result;
}
