import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployments } from '../deployments/registry';
import { startServer } from './http/server';
import { fixtureRecords } from './http/server-fixture.test-support';
import { openStore, openStoreWriter } from './store/sqlite/sqlite';

/**
 * An import killed with SIGKILL in the middle of writing (power cut, OOM killer, an
 * impatient operator) leaves the previous committed state of the database, still serving,
 * and the next import goes through cleanly, leftovers and all.
 */

const bin = fileURLToPath(new URL('../../bin/records.js', import.meta.url));
const require = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'records-cli-import-'));
const dbPath = join(dir, 'records.db');
const bigFile = join(dir, 'upstream-100k.json');
const smallFile = join(dir, 'upstream-100.json');
const lit = deployments.find((deployment) => deployment.key === 'LIT')!;

/** One record in the upstream's shape (osti_id, doe_contract_number, ...). */
function upstreamRecord(n: number): string {
  const id = String(70_000_000 + n);
  return JSON.stringify({
    osti_id: id,
    title: `Imported study ${n} of turbulent plasma transport`,
    authors: [`Author, Number ${n % 997}`, 'Second, Person'],
    subjects: ['70 PLASMA PHYSICS AND FUSION TECHNOLOGY'],
    description: `Record ${n} of a large upstream export, used to interrupt an import while it writes.`,
    publisher: '',
    country_publication: 'United States',
    publication_date: `${2000 + (n % 24)}-0${1 + (n % 9)}-15T00:00:00Z`,
    entry_date: '2024-01-01T00:00:00Z',
    doi: `https://doi.org/10.5555/import.${n}`,
    language: 'English',
    doe_contract_number: `AC02-${n % 100}CH11466`,
    research_orgs: ['Princeton Plasma Physics Laboratory'],
    sponsor_orgs: ['USDOE Office of Science (SC)'],
    product_type: 'Journal Article',
    links: [{ rel: 'citation', href: `https://www.osti.gov/biblio/${id}` }],
  });
}

async function writeUpstreamFile(path: string, count: number, from = 0): Promise<void> {
  const out = createWriteStream(path);
  out.write('[\n');
  for (let n = from; n < from + count; n++) {
    if (!out.write(`${upstreamRecord(n)}${n < from + count - 1 ? ',\n' : '\n'}`))
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  out.end(']\n');
  await new Promise<void>((resolve) => out.once('close', () => resolve()));
}

beforeAll(async () => {
  const writer = openStoreWriter(dbPath);
  try {
    writer.put('LIT', fixtureRecords(lit));
  } finally {
    writer.close();
  }
  await writeUpstreamFile(bigFile, 100_000);
  await writeUpstreamFile(smallFile, 100, 500_000);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function importRun(file: string) {
  const child = spawn(process.execPath, [bin, 'import', 'LIT', file, '--db', dbPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, exited };
}

/** Side files of the database: a killed first write's copy, a journal or a log left open. */
const leftovers = () => readdirSync(dir).filter((name) => name.startsWith('records.db.') || name.startsWith('records.db-'));

/** What a reader sees: the revision, and every record's repo_id and stored JSON. */
function stateOf(path: string): unknown {
  const db = new Database(path, { readonly: true });
  try {
    return {
      revision: db.prepare(`SELECT value FROM meta WHERE key = 'revision'`).pluck().get(),
      records: db.prepare(`SELECT repo_id, doc FROM lit_records ORDER BY id`).all(),
    };
  } finally {
    db.close();
  }
}

function integrity(path: string): unknown {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma('integrity_check', { simple: true });
  } finally {
    db.close();
  }
}

describe('an import killed midway', () => {
  it('leaves the previous committed state intact and serving; the next import succeeds', async () => {
    const before = stateOf(dbPath);
    const run = importRun(bigFile);
    const log = `${dbPath}-wal`;
    // Wait until it is writing in place: its write-ahead log has grown past what opening writes.
    const deadline = Date.now() + 60_000;
    let finishedEarly = false;
    run.exited.then(
      () => (finishedEarly = true),
      () => undefined,
    );
    while (!(existsSync(log) && statSync(log).size > 1_000_000) && !finishedEarly && Date.now() < deadline) await sleep(20);
    expect(existsSync(log), 'the import started writing').toBe(true);
    run.child.kill('SIGKILL');
    const killed = await run.exited;
    expect(killed.signal, `the import was still running when killed: ${killed.stdout}`).toBe('SIGKILL');

    // The database holds what it held before: the killed transaction never committed.
    expect(integrity(dbPath)).toBe('ok');
    expect(stateOf(dbPath)).toEqual(before);

    // ... and it serves.
    const store = openStore(dbPath);
    const server = await startServer({ store, port: 0 });
    try {
      expect(await store.count('LIT')).toBe(45);
      const response = await fetch(`${server.url}${lit.basePath}/records/1001`);
      expect(response.status).toBe(200);
      const missing = await fetch(`${server.url}${lit.basePath}/records/70000000`);
      expect(missing.status, 'nothing of the killed import is visible').toBe(404);
    } finally {
      await server.close();
      await store.close();
    }

    // The next import goes through despite the killed run's leftovers, and cleans them up.
    const next = await Promise.race([importRun(smallFile).exited, sleep(60_000).then(() => undefined)]);
    expect(next, 'the second import finished within 60 s').toBeDefined();
    expect(next!.code, next!.stderr).toBe(0);
    expect(next!.stdout).toContain('Imported 100 LIT records');
    expect(leftovers()).toEqual([]);
    expect(integrity(dbPath)).toBe('ok');
    const after = openStore(dbPath);
    try {
      expect(await after.count('LIT')).toBe(145);
      expect((await after.get('LIT', '70500000'))?.record.title).toBe('Imported study 500000 of turbulent plasma transport');
      expect((await after.get('LIT', '1001'))?.record.repo_id).toBe('1001');
      expect(await after.get('LIT', '70000000'), 'nothing of the killed import got in').toBeUndefined();
    } finally {
      await after.close();
    }
  }, 180_000);

  it('importing into a corrupt database file is one clear message; the file stays as it was and nothing is left beside it', async () => {
    const corrupt = join(dir, 'corrupt.db');
    const bytes = Buffer.from('not a database at all\n'.repeat(100));
    writeFileSync(corrupt, bytes);
    const child = spawn(process.execPath, [bin, 'import', 'LIT', smallFile, '--db', corrupt], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await Promise.race([
      new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode))),
      sleep(30_000).then(() => 'hung' as const),
    ]);
    expect(code).not.toBe('hung');
    expect(code).not.toBe(0);
    expect(stderr).toContain(corrupt);
    expect(stderr, 'stack trace').not.toMatch(/^\s+at /m);
    expect(readFileSync(corrupt).equals(bytes)).toBe(true);
    expect(readdirSync(dir).filter((name) => name.startsWith('corrupt.db.'))).toEqual([]);
  });

  it('a hot journal left by a writer killed mid-commit never leaks into a later import of a replaced database', async () => {
    // A writer killed after SQLite has synced its rollback journal (which a large import
    // does whenever its page cache spills) leaves a "hot" journal beside the side copy;
    // SQLite would replay it into whatever file next has that name.
    const side = `${dbPath}.writing`;
    writeFileSync(side, readFileSync(dbPath));
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
         const db = new Database(${JSON.stringify(side)});
         db.pragma('journal_mode = DELETE');
         db.pragma('cache_size = 2');
         db.exec('BEGIN');
         const put = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
         for (let i = 0; i < 3000; i++) put.run('filler' + i, 'x'.repeat(900));
         console.log('holding');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    expect(existsSync(`${side}-journal`), 'a journal was left behind').toBe(true);

    // Meanwhile the operator restores a different database (a backup with every deployment).
    const restored = join(dir, 'restored.db');
    const writer = openStoreWriter(restored);
    try {
      for (const deployment of deployments) writer.put(deployment.key, fixtureRecords(deployment));
    } finally {
      writer.close();
    }
    renameSync(restored, dbPath);

    const next = await Promise.race([importRun(smallFile).exited, sleep(60_000).then(() => undefined)]);
    expect(next, 'the import finished within 60 s').toBeDefined();
    expect(next!.code, next!.stderr).toBe(0);
    expect(leftovers()).toEqual([]);
    expect(integrity(dbPath)).toBe('ok');
    const after = openStore(dbPath);
    try {
      for (const deployment of deployments)
        expect(await after.count(deployment.key), deployment.key).toBe(deployment.key === 'LIT' ? 145 : 45);
      expect((await after.get('MM', '1031'))?.record.repo_id).toBe('1031');
    } finally {
      await after.close();
    }
  });
});
