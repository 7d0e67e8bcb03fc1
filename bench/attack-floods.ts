import { singleClient } from './http-client';
import type { Child } from './processes';
import { summarize, type Summary } from './stats';

/**
 * Floods of one request kind (issue 42: admission fair by client and by measured cost): 8
 * clients, each from a loopback address of its own, each looping one kind, while a person,
 * already connected from another address, alternates a one-word search and a record. Each
 * kind is also timed alone first, by one client on a quiet server. Target: the person's
 * search and record p99 ≤ 100 ms during every flood.
 */

export interface FloodKind {
  readonly name: string;
  readonly accept?: string;
  /** The i-th request of the flood; `subjects` are real subject values of the store, most common first. */
  readonly path: (base: string, i: number, subjects: readonly string[]) => string;
}

const words = ['temperature', 'plasma', 'solar', 'wind', 'laser', 'sensor', 'carbon', 'energy'];
const word = (i: number) => words[i % words.length]!;

/** 50 of the store's subject values, a different 50 for each request, as `NAME=value` parameters. */
const fiftySubjects = (name: string, i: number, subjects: readonly string[]) =>
  Array.from({ length: 50 }, (_, k) => `${name}=${encodeURIComponent(subjects[(i + k) % subjects.length]!)}`).join('&');

export const floodKinds: readonly FloodKind[] = [
  { name: 'broad facets', path: (base, i) => `${base}/facets?q=${word(i)}` },
  { name: 'facets without a query', path: (base, i) => `${base}/facets?facet_offset=${i % 3}` },
  { name: 'facet_contains', path: (base, i) => `${base}/facets?facet=subject&facet_contains=${'eaoin'[i % 5]}` },
  {
    name: '400-deep parentheses',
    path: (base, i) => `${base}/records?q=${encodeURIComponent(`${'('.repeat(400)}${word(i)}${')'.repeat(400)}`)}`,
  },
  {
    name: 'repo_id + phrases',
    path: (base, i) => `${base}/records?repo_id=${50_000_001 + (i % 500)}&q=${encodeURIComponent(`"the ${word(i)} of" OR "of the data"`)}`,
  },
  { name: '50 exclusions', path: (base, i, subjects) => `${base}/records?q=${word(i)}&${fiftySubjects('exclude.subject', i, subjects)}` },
  { name: '50 selections', path: (base, i, subjects) => `${base}/records?${fiftySubjects('facet.subject', i, subjects)}` },
  { name: '1,000-row XML pages', accept: 'application/xml', path: (base, i) => `${base}/records?rows=1000&page=${1 + (i % 20)}` },
  { name: '1,000-row feeds', path: (base, i) => `${base}/feed?rows=1000&q=${word(i)}` },
  // Each page groups a window of 100 records into works (render/work-page.ts).
  { name: 'group=work pages', path: (base, i) => `${base}/records?q=${word(i)}&group=work&page=${1 + (i % 5)}` },
];

/** The flood kinds chosen by ATTACK_FLOODS (comma-separated parts of their names), all without it. */
export function chosenFloodKinds(choice = process.env.ATTACK_FLOODS): readonly FloodKind[] {
  if (!choice) return floodKinds;
  const parts = choice.split(',').map((part) => part.trim().toLowerCase());
  return floodKinds.filter(({ name }) => parts.some((part) => name.toLowerCase().includes(part)));
}

/** Where the n-th attacker connects from: a loopback address of its own, so the server sees eight clients. */
const attackerAddress = (n: number) => `127.0.0.${10 + n}`;

type Log = (line: string) => void;

function tally(statuses: Record<string, number>, status: string | number) {
  statuses[status] = (statuses[status] ?? 0) + 1;
}

/**
 * The store's 60 most common short subject values (the values 50 exclusions and 50 selections
 * name): short, so fifty of them fit in a URL the server accepts (else most are a cheap 414).
 */
async function subjectsOf(server: Child, base: string): Promise<string[]> {
  const client = singleClient();
  try {
    const response = await client.get(`${server.url}${base}/facets?facet=subject&facet_limit.subject=300`);
    const body = JSON.parse(response.body.toString()) as { facets: { values: { value: string }[] }[] };
    return body.facets[0]!.values.map(({ value }) => value)
      .filter((value) => value.length <= 30)
      .slice(0, 60);
  } finally {
    client.close();
  }
}

/** `kind` asked by one client on a quiet server: what it costs when nothing else runs. */
async function alone(server: Child, base: string, kind: FloodKind, subjects: readonly string[]): Promise<Summary> {
  // From an address of its own: the server would otherwise count its work against the person's.
  const client = singleClient(kind.accept, '127.0.0.9');
  const samples: number[] = [];
  try {
    for (let i = 0; i < 12; i++) {
      const response = await client.get(server.url + kind.path(base, 100 + i, subjects), 30_000);
      // The first two warm the kind's caches up.
      if (i >= 2 && response.status === 200) samples.push(response.ms);
    }
  } finally {
    client.close();
  }
  return summarize(samples);
}

/** 8 clients looping `kind` for `seconds`, each from an address of its own; the person's search and record latencies meanwhile. */
export async function flood(server: Child, base: string, kind: FloodKind, seconds: number, log: Log) {
  const subjects = await subjectsOf(server, base);
  const quiet = await alone(server, base, kind, subjects);
  log(`flood: 8 clients looping ${kind.name} (alone: p50 ${quiet.p50} ms, p99 ${quiet.p99} ms); a person's searches and records meanwhile`);
  const until = performance.now() + seconds * 1000;
  const attackers = Array.from({ length: 8 }, async (_, n) => {
    const client = singleClient(kind.accept, attackerAddress(n));
    const statuses: Record<string, number> = {};
    const samples: number[] = [];
    for (let i = n; performance.now() < until; i += 8) {
      try {
        const response = await client.get(server.url + kind.path(base, i, subjects), 30_000);
        tally(statuses, response.status);
        samples.push(response.ms);
      } catch {
        tally(statuses, 'error');
      }
    }
    client.close();
    return { statuses, samples };
  });
  const person = await personMeanwhile(server, base, until);
  const runs = await Promise.all(attackers);
  const statuses: Record<string, number> = {};
  for (const run of runs) for (const [status, count] of Object.entries(run.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  const result = {
    kind: kind.name,
    alone: quiet,
    ...person,
    attack: { latency: summarize(runs.flatMap((run) => run.samples)), statuses },
  };
  log(
    `  person's search p50 ${result.search.p50} ms, p99 ${result.search.p99} ms; record p50 ${result.record.p50} ms, p99 ${result.record.p99} ms; person's statuses ${JSON.stringify(result.userStatuses)}; attackers ${JSON.stringify(statuses)}, p50 ${result.attack.latency.p50} ms`,
  );
  return result;
}

/** A person, connected before the flood, alternating a one-word search and a record until `until`. */
async function personMeanwhile(server: Child, base: string, until: number) {
  const person = singleClient();
  await person.get(`${server.url}${base}/records?rows=1`);
  const search: number[] = [];
  const record: number[] = [];
  const userStatuses: Record<string, number> = {};
  for (let i = 0; performance.now() < until; i++) {
    const isSearch = i % 2 === 0;
    const path = isSearch ? `${base}/records?q=${word(i >> 1)}&rows=20` : `${base}/records/${50_000_001 + ((i * 97) % 5000)}`;
    try {
      const response = await person.get(server.url + path, 30_000);
      tally(userStatuses, response.status);
      if (response.status === 200) (isSearch ? search : record).push(response.ms);
    } catch {
      tally(userStatuses, 'error');
    }
  }
  person.close();
  return { search: summarize(search), record: summarize(record), userStatuses };
}
