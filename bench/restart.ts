/**
 * A restarted `records serve` timed from its spawn (issue 41's start-up target): its ready
 * line, then a search and a facets request sent together at that line, then a date search.
 * A first start is held until the store's parts are kept (the reader's type-ahead tables and
 * vocabularies come last; at a million records with nothing kept they take half a minute of a
 * core), then ROUNDS restarts each read what it kept. The client loads its HTTP client before
 * it spawns the server, so that cost is not timed as the server's.
 *   npm run bench:restart -- DATABASE [ROUNDS] [HOLD_SECONDS] [QUERY]
 * writes bench/results/restart-<time>.json.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gitCommit, load1, machine } from './machine';
import { repoRoot } from './processes';
import { summarize } from './stats';

const [dbArg, roundsArg, holdArg, query = 'plasma'] = process.argv.slice(2);
if (!dbArg) throw new Error('usage: npm run bench:restart -- DATABASE [ROUNDS] [HOLD_SECONDS] [QUERY]');
const db = resolve(dbArg);
const rounds = Number(roundsArg ?? 5);
const holdSeconds = Number(holdArg ?? 60);

interface Start {
  readonly readyMs: number;
  readonly searchMs: number;
  readonly facetsMs: number;
  readonly dateSearchMs: number;
}

/** One start of the server: timed from spawn until each answer; stopped after `holdMs` more. */
function timedStart(holdMs: number): Promise<Start> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['bin/records.js', 'serve', '--db', db, '--port', '0', '--search-cache-mb', '0'], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let timed: Start | undefined;
    const since = () => performance.now() - started;
    const answered = async (url: string) => {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      return since();
    };
    child.stderr.on('data', (chunk: Buffer) => {
      const before = stderr;
      stderr += chunk.toString();
      const url = /^records: ready at (http:\/\/[^/\s]+)\/$/m.exec(stderr)?.[1];
      if (!url || /^records: ready at /m.test(before)) return;
      const readyMs = since();
      const api = `${url}/api/lit/v1`;
      void (async () => {
        const [searchMs, facetsMs] = await Promise.all([
          answered(`${api}/records?q=${encodeURIComponent(query)}&rows=20`),
          answered(`${api}/facets?q=${encodeURIComponent(query)}`),
        ]);
        const dateSearchMs = await answered(
          `${api}/records?q=${encodeURIComponent(query)}&publication_date_start=01/01/2015&publication_date_end=12/31/2016&rows=20`,
        );
        timed = { readyMs, searchMs, facetsMs, dateSearchMs };
        setTimeout(() => child.kill('SIGTERM'), holdMs);
      })().catch((error: Error) => {
        child.kill('SIGKILL');
        fail(error);
      });
    });
    child.on('exit', (code) => (timed ? done(timed) : fail(new Error(`the server exited (${code}) before it was timed:\n${stderr}`))));
  });
}

await fetch('http://127.0.0.1:9/').catch(() => undefined);
console.error(`a first start, held ${holdSeconds} s for its parts to be kept`);
const first = await timedStart(holdSeconds * 1000);
const starts: Start[] = [];
const loads: number[] = [];
for (let round = 0; round < rounds; round++) {
  loads.push(load1());
  const start = await timedStart(0);
  starts.push(start);
  console.error(JSON.stringify(start, (_, value: unknown) => (typeof value === 'number' ? Math.round(value) : value)));
}
const summary = Object.fromEntries(
  (['readyMs', 'searchMs', 'facetsMs', 'dateSearchMs'] as const).map((measure) => {
    const times = starts.map((start) => start[measure]);
    return [measure, { min: Math.round(Math.min(...times)), ...summarize(times) }];
  }),
);
const at = new Date().toISOString().replace(/:/g, '-').slice(0, 16);
const out = resolve(repoRoot, 'bench/results', `restart-${at}.json`);
mkdirSync(resolve(repoRoot, 'bench/results'), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify({ command: `npm run bench:restart -- ${process.argv.slice(2).join(' ')}`, ...gitCommit(), machine: machine(), loads, first, starts, summary }, null, 2)}\n`,
);
console.log(JSON.stringify(summary, null, 2));
console.log(`written to ${out}`);
