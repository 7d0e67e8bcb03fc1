/**
 * Attacks on loopback against the real server (`records serve`, a child process), with a
 * normal client measuring what an ordinary user meets meanwhile:
 *
 * - slow readers: N connections each pipelining 20 × `GET /records?rows=1000` as XML in
 *   one write and never reading (N = 100 and 2,000); the server's peak RSS and the normal
 *   client's latency (a search and a record, in turn);
 * - expensive queries: 8 clients sending the costliest search the cost limit accepts, in a
 *   loop; the latency of `GET /records/{id}` meanwhile;
 * - floods of one request kind each, by 8 clients from addresses of their own
 *   (attack-floods.ts): broad facets, facets without a query, `facet_contains`, 400-deep
 *   parentheses, `repo_id` beside phrases, 50 exclusions, 50 selections, 1,000-row XML
 *   pages, 1,000-row feeds, `group=work` pages; each kind alone first, then a person's search and record meanwhile;
 * - hostile input (attack-hostile-input.ts): unauthenticated reads of a private mirror, XML
 *   prologs, endless and oversized harvest sources, SIGTERM, hostile headers.
 *
 *   npm run attack
 *   ATTACK_RECORDS=20000 ATTACK_SECONDS=10 npm run attack
 *   ATTACK_ONLY=floods npm run attack      (slow, expensive, floods, input: a comma-separated choice)
 *   ATTACK_ONLY=floods ATTACK_FLOODS=feeds,xml npm run attack   (floods whose names hold these)
 *
 * Settings (environment): ATTACK_RECORDS (LIT records, 100000), ATTACK_DB (attack an existing
 * database instead, such as a bench's), ATTACK_SECONDS (per attack, 20), ATTACK_NAME (results in attack-<date>-<name>.json), BENCH_PORTS
 * (the servers' and the harvest sources' ports). Results: bench/results/attack-<date>.json; targets: RSS < 600 MB and the
 * normal client's p99 < 100 ms under slow readers, the record p99 ≤ 50 ms under expensive
 * queries, the person's search and record p99 ≤ 100 ms during each flood.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { chosenFloodKinds, flood } from './attack-floods';
import { hostileInputAttacks } from './attack-hostile-input';
import { existingCorpus, prepareCorpus } from './corpus';
import { rssOf, sampleMemory } from './memory';
import { load1, machine, gitCommit } from './machine';
import { repoRoot, startRecordsServer, type Child } from './processes';
import { singleClient } from './http-client';
import { summarize, type Summary } from './stats';

const setting = (name: string, fallback: number) => {
  const raw = process.env[name];
  const value = raw ? Number(raw) : fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number, not '${raw}'`);
  return value;
};

const records = setting('ATTACK_RECORDS', 100_000);
const seconds = setting('ATTACK_SECONDS', 20);
const base = '/api/lit/v1';
const only = process.env.ATTACK_ONLY?.split(',');
const wanted = (attack: 'slow' | 'expensive' | 'floods' | 'input') => !only || only.includes(attack);
const log = (line: string) => console.log(`[attack ${new Date().toISOString().slice(11, 19)}] ${line}`);
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

interface ClientRun {
  readonly latency: Summary;
  readonly errors: number;
  readonly statuses: Record<string, number>;
}

/** One ordinary client, sequential, for `ms`: each path in turn, on a connection it already holds. */
async function normalClient(
  client: ReturnType<typeof singleClient>,
  origin: string,
  paths: readonly string[],
  ms: number,
): Promise<ClientRun> {
  const samples: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const until = performance.now() + ms;
  for (let i = 0; performance.now() < until; i++) {
    try {
      const response = await client.get(origin + paths[i % paths.length]!, 10_000);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      if (response.status === 200) samples.push(response.ms);
      else errors++;
    } catch {
      errors++;
    }
  }
  client.close();
  return { latency: summarize(samples), errors, statuses };
}

function silentConnection(origin: string, path: string, requests: number): Promise<Socket | undefined> {
  const { port } = new URL(origin);
  return new Promise((done) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: application/xml\r\n\r\n`.repeat(requests));
      socket.pause();
      done(socket);
    });
    socket.on('error', () => done(undefined));
  });
}

async function slowReaders(server: Child, connections: number) {
  log(`slow readers: ${connections} connections × 20 pipelined rows=1000 XML pages, never read`);
  // An ordinary user who was already connected when the attack began.
  const client = singleClient();
  await client.get(`${server.url}${base}/records?rows=1`);
  const idleRssBytes = rssOf(server.pid) ?? 0;
  const memory = sampleMemory(server.pid, 100);
  // The user keeps asking while the attackers connect: an active user, whose connection no
  // idle timeout closes.
  const normalRun = normalClient(
    client,
    server.url,
    [`${base}/records?q=temperature&rows=20`, `${base}/records/${50_000_000 + 17}`],
    seconds * 1000,
  );
  const sockets: Socket[] = [];
  for (let i = 0; i < connections; i += 100) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(100, connections - i) }, () => silentConnection(server.url, `${base}/records?rows=1000`, 20)),
    );
    sockets.push(...batch.filter((socket): socket is Socket => socket !== undefined));
  }
  const normal = await normalRun;
  for (const socket of sockets) socket.destroy();
  await sleep(2_000);
  const rss = memory.stop();
  log(
    `  RSS before ${mb(idleRssBytes)} MB, peak ${mb(rss.maxBytes)} MB; normal client p50 ${normal.latency.p50} ms, p99 ${normal.latency.p99} ms, errors ${normal.errors}`,
  );
  return { connections, opened: sockets.length, idleRssBytes, peakRssBytes: rss.maxBytes, meanRssBytes: rss.meanBytes, normal };
}

async function expensiveQueries(server: Child) {
  // Five short prefixes: the most the cost limit accepts (src/server/query/cost.ts).
  const costly = (i: number) =>
    `${base}/records?q=${encodeURIComponent(`a* OR e* OR i* OR o* OR ${'bcdfghjklm'[i % 10]}*`)}&sort=relevance`;
  log('expensive queries: 8 clients looping the costliest accepted search; records fetched meanwhile');
  const until = performance.now() + seconds * 1000;
  const heavy = Array.from({ length: 8 }, async (_, n) => {
    const client = singleClient();
    const statuses: Record<string, number> = {};
    const samples: number[] = [];
    for (let i = n; performance.now() < until; i += 8) {
      try {
        const response = await client.get(server.url + costly(i), 30_000);
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        samples.push(response.ms);
      } catch {
        statuses.error = (statuses.error ?? 0) + 1;
      }
    }
    client.close();
    return { statuses, samples };
  });
  await sleep(500);
  const client = singleClient();
  const records = await normalClient(
    client,
    server.url,
    Array.from({ length: 50 }, (_, i) => `${base}/records/${50_000_000 + 1 + i * 97}`),
    seconds * 1000 - 1000,
  );
  const runs = await Promise.all(heavy);
  const statuses: Record<string, number> = {};
  for (const run of runs) for (const [status, count] of Object.entries(run.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  const expensive = summarize(runs.flatMap((run) => run.samples));
  log(
    `  record p50 ${records.latency.p50} ms, p99 ${records.latency.p99} ms; expensive p50 ${expensive.p50} ms, statuses ${JSON.stringify(statuses)}`,
  );
  return { records, expensive: { latency: expensive, statuses } };
}

const corpus = process.env.ATTACK_DB ? existingCorpus(process.env.ATTACK_DB, log) : await prepareCorpus(records, 1, log);
const started = new Date();
/**
 * Each attack meets a server of its own, as it would meet a server at rest: allocators keep
 * some memory a finished attack used, so on a shared server the second attack's RSS would
 * start from the first one's.
 * Nothing remembered: every expensive search is computed, as an attacker varying it would make it.
 */
async function onFreshServer<T>(attack: (server: Child) => Promise<T>): Promise<T> {
  const server = await startRecordsServer(corpus.path, undefined, ['--search-cache-mb', '0']);
  try {
    return await attack(server);
  } finally {
    await server.stop();
  }
}

const result = {
  date: started.toISOString(),
  command: 'npm run attack',
  machine: machine(),
  load1: { start: load1(), end: 0 },
  git: gitCommit(),
  records: Number.isFinite(corpus.records) ? corpus.records : records,
  seconds,
  slowReaders: wanted('slow')
    ? [await onFreshServer((server) => slowReaders(server, 100)), await onFreshServer((server) => slowReaders(server, 2000))]
    : [],
  expensive: wanted('expensive') ? await onFreshServer(expensiveQueries) : undefined,
  floods: [] as Awaited<ReturnType<typeof flood>>[],
};
if (wanted('floods'))
  for (const kind of chosenFloodKinds()) result.floods.push(await onFreshServer((server) => flood(server, base, kind, seconds, log)));
const input = wanted('input') ? await hostileInputAttacks(corpus.path, Math.min(records, 2000), log) : undefined;
result.load1.end = load1();
const dir = resolve(repoRoot, 'bench/results');
mkdirSync(dir, { recursive: true });
// ATTACK_NAME tells one run's results from another's of the same day (attack-<date>-<name>.json).
const name = process.env.ATTACK_NAME ? `-${process.env.ATTACK_NAME.replace(/[^\w.-]+/g, '-')}` : '';
const file = resolve(dir, `attack-${started.toISOString().slice(0, 10)}${name}.json`);
writeFileSync(file, `${JSON.stringify({ ...result, input }, null, 2)}\n`);
log(`results in ${file}`);
