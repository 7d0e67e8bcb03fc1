import Database from 'better-sqlite3';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer as createTcpServer, connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployments } from '../deployments/registry';
import { apiErrorSchema } from '../formats/error';
import { fixtureRecords } from './http/server-fixture.test-support';
import { openStore, openStoreWriter } from './store/sqlite/sqlite';

/**
 * `records serve` as an operator runs it: a real process on a real database file. Bad
 * startup input (a missing, corrupt or foreign database, an unusable token file or port)
 * is a one-line message naming the culprit and a non-zero exit, never a stack trace or a
 * process that hangs; the served database is opened read-only and is byte-for-byte the
 * same after serving; SIGTERM lets an in-flight request finish and exits 0; and private
 * mirror mode works from the command line.
 */

const bin = fileURLToPath(new URL('../../bin/records.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'records-cli-serve-'));
const dbPath = join(dir, 'records.db');
/** No index.html here, so only the APIs are served. */
const noApp = join(dir, 'no-app');
mkdirSync(noApp);
const children = new Set<ChildProcess>();

beforeAll(() => {
  // As `records import` makes a new database: written in bulk, then left in WAL mode.
  const writer = openStoreWriter(dbPath, { bulk: true });
  try {
    for (const deployment of deployments) writer.put(deployment.key, fixtureRecords(deployment));
  } finally {
    writer.close();
  }
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Finished {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

function records(args: readonly string[]) {
  const env = { ...process.env };
  delete env.PORT;
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Finished>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** Runs to completion; a run that is still going after `withinMs` is killed and fails. */
async function runToEnd(args: readonly string[], withinMs = 30_000): Promise<Finished> {
  const run = records(args);
  const outcome = await Promise.race([run.exited, sleep(withinMs).then(() => undefined)]);
  if (!outcome) {
    run.child.kill('SIGKILL');
    throw new Error(`records ${args.join(' ')} still running after ${withinMs} ms: ${JSON.stringify(run.output())}`);
  }
  return outcome;
}

/** Starts `records serve` and waits until it has reported every deployment's count. */
async function serve(args: readonly string[]) {
  const run = records(['serve', '--port', '0', '--static', noApp, ...args]);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { stdout } = run.output();
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout)?.[0];
    if (url && (stdout.match(/\(\d+ records\)/g) ?? []).length === deployments.length) return { ...run, url };
    if (run.child.exitCode !== null || Date.now() > deadline) throw new Error(`serve did not start: ${JSON.stringify(run.output())}`);
    await sleep(50);
  }
}

/** A clean operator-facing failure: non-zero, the culprit named, no stack trace. */
function expectCleanFailure(result: Finished, mentions: string, label: string) {
  expect(result.code, `${label}: exit code\n${result.stderr}`).not.toBe(0);
  expect(result.signal, label).toBeNull();
  expect(result.stderr, label).toContain(mentions);
  expect(result.stderr, `${label}: stack trace`).not.toMatch(/^\s+at /m);
  expect(result.stderr, label).not.toContain('node:internal');
  expect(result.stdout, label).not.toContain('is serving');
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

// ---------------------------------------------------------------------------------------

/** A line of a start's progress on stderr. */
const progressLine =
  /^records: (opening |search workers ready \d+\/\d+$|reading the facet values|facet values read( as kept for this data \(.+\))?$|ready at )/;

describe('a start says what it is doing while it warms up', () => {
  it('on stderr: opening the file, each search worker ready, the facet values, then ready, before the URL list', async () => {
    const run = records(['serve', '--db', dbPath, '--port', '0', '--static', noApp]);
    const lines: string[] = [];
    let rest = '';
    const ready = new Promise<void>((resolve, reject) => {
      run.child.stderr.on('data', (chunk: Buffer) => {
        const parts = (rest + chunk.toString()).split('\n');
        rest = parts.pop()!;
        lines.push(...parts);
        if (parts.some((line) => line.startsWith('records: ready at '))) resolve();
      });
      void run.exited.then((finished) => reject(new Error(`exited before it was ready: ${JSON.stringify(finished)}`)));
    });
    await ready;
    // The ready line is written before the URL list on stdout, which may not have arrived yet.
    const url = /^records: ready at (http:\/\/127\.0\.0\.1:\d+)\/$/.exec(lines.at(-1)!)?.[1];
    expect(url, lines.join('\n')).toBeDefined();
    expect(lines[0]).toBe(`records: opening ${dbPath}`);
    const workers = lines.filter((line) => line.startsWith('records: search workers ready'));
    const of = Number(/\/(\d+)$/.exec(workers[0] ?? '')?.[1]);
    expect(of).toBeGreaterThan(0);
    expect(workers).toEqual(Array.from({ length: of }, (_, i) => `records: search workers ready ${i + 1}/${of}`));
    const at = (text: string) => lines.findIndex((line) => line.startsWith(`records: ${text}`));
    expect(at('search workers ready 1/')).toBeGreaterThan(at('opening '));
    expect(at('reading the facet values')).toBeGreaterThan(at(`search workers ready ${of}/`));
    expect(at('facet values read')).toBeGreaterThan(at('reading the facet values'));
    expect(at('ready at ')).toBe(lines.length - 1);
    expect(
      lines.every((line) => progressLine.test(line)),
      lines.join('\n'),
    ).toBe(true);
    expect((await fetch(`${url}/api/lit/v1/records?rows=1`)).status).toBe(200);
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(0);
  });
});

describe('startup errors are one clear message and a non-zero exit', () => {
  it('for a missing, corrupt, empty, foreign or out-of-date database, a folder, a bad token file or port', async () => {
    const original = readFileSync(dbPath);
    const at = (name: string) => join(dir, name);
    writeFileSync(at('garbage.db'), 'this is not a database\n'.repeat(200));
    writeFileSync(at('empty.db'), '');
    writeFileSync(at('truncated.db'), original.subarray(0, Math.floor(original.length / 8192) * 4096));
    const foreign = new Database(at('foreign.db'));
    foreign.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES (1)');
    foreign.close();
    const outdated = new Database(at('outdated.db'));
    outdated.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('schema', '0')`);
    outdated.close();
    mkdirSync(at('folder.db'));
    writeFileSync(at('blank-token'), ' \n\t\n');
    // A port that is taken.
    const blocker = createTcpServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const takenPort = (blocker.address() as AddressInfo).port;

    const cases: [label: string, args: string[], mentions: string][] = [
      ['missing database', ['serve', '--db', at('missing.db')], at('missing.db')],
      ['garbage bytes', ['serve', '--db', at('garbage.db')], at('garbage.db')],
      ['empty file', ['serve', '--db', at('empty.db')], at('empty.db')],
      ['truncated database', ['serve', '--db', at('truncated.db')], at('truncated.db')],
      ['foreign SQLite file', ['serve', '--db', at('foreign.db')], at('foreign.db')],
      ['out-of-date schema', ['serve', '--db', at('outdated.db')], at('outdated.db')],
      ['a folder', ['serve', '--db', at('folder.db')], at('folder.db')],
      ['missing token file', ['serve', '--db', dbPath, '--token-file', at('no-token')], at('no-token')],
      ['blank token file', ['serve', '--db', dbPath, '--token-file', at('blank-token')], at('blank-token')],
      ['token file is a folder', ['serve', '--db', dbPath, '--token-file', dir], dir],
      ['port in use', ['serve', '--db', dbPath, '--port', String(takenPort)], `127.0.0.1:${takenPort}`],
      ['port not a number', ['serve', '--db', dbPath, '--port', 'eighty'], 'eighty'],
      ['port out of range', ['serve', '--db', dbPath, '--port', '70000'], '70000'],
      [
        'search cache size not a number',
        ['serve', '--db', dbPath, '--search-cache-mb', 'x'],
        "--search-cache-mb must be a whole number of at least 0; got 'x'",
      ],
    ];
    try {
      // The error paths never start listening, so they can run side by side.
      const results = await Promise.all(cases.map(([, args]) => runToEnd([...args, '--static', noApp])));
      cases.forEach(([label, , mentions], i) => expectCleanFailure(results[i]!, mentions, label));
      expect(results[8]!.stderr).toContain('empty');
      expect(results[10]!.stderr).toContain('in use');
      expect(results[13]!.stderr, 'a usage error shows the usage').toContain('--search-cache-mb N');
    } finally {
      blocker.close();
    }
    // None of this touched the real database.
    expect(readFileSync(dbPath).equals(original)).toBe(true);
  });
});

describe('private mirror mode from the command line', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  const tokenFile = join(dir, 'token');

  beforeAll(async () => {
    // Editors leave a trailing newline; it is not part of the token.
    writeFileSync(tokenFile, 's3cret-Token_42\n');
    server = await serve(['--db', dbPath, '--token-file', tokenFile]);
  });
  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });

  const lit = deployments[0]!;

  it('without a token, or with a wrong one, the API is 401 with the Error object and WWW-Authenticate', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong',
      'Bearer s3cret-Token_4',
      'Bearer s3cret-Token_42x',
      'Basic czNjcmV0LVRva2VuXzQy',
      's3cret-Token_42',
    ]) {
      const response = await fetch(`${server.url}${lit.basePath}/records?rows=1`, {
        headers: authorization ? { Authorization: authorization } : {},
      });
      expect(response.status, authorization).toBe(401);
      expect(response.headers.get('www-authenticate'), authorization).toBe('Bearer realm="records"');
      const error = apiErrorSchema.parse(await response.json());
      expect(error).toMatchObject({ statusCode: 401, statusMessage: 'Unauthorized' });
    }
    const xml = await fetch(`${server.url}${lit.basePath}/records/1001`, { headers: { Accept: 'application/xml' } });
    expect(xml.status).toBe(401);
    expect(await xml.text()).toContain('<statusCode>401</statusCode>');
    expect((await fetch(`${server.url}/files/fulltext/lit/1011.txt`)).status).toBe(401);
  });

  it('with the token from the file, everything is 200', async () => {
    const headers = { Authorization: 'Bearer s3cret-Token_42' };
    const list = await fetch(`${server.url}${lit.basePath}/records?rows=2`, { headers });
    expect(list.status).toBe(200);
    expect(await list.json()).toHaveLength(2);
    const record = await fetch(`${server.url}${lit.basePath}/records/1001`, { headers: { authorization: 'bearer s3cret-Token_42' } });
    expect(record.status).toBe(200);
    expect((await fetch(`${server.url}/files/fulltext/lit/1011.txt`, { headers })).status).toBe(200);
  });
});

describe('serving with the search cache off (--search-cache-mb 0)', () => {
  let server: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    server = await serve(['--db', dbPath, '--search-cache-mb', '0']);
  });
  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('starts, and answers a repeated search identically', async () => {
    const url = `${server.url}${deployments[0]!.basePath}/records?q=wind&sort=title&rows=5`;
    const [first, second] = [await fetch(url), await fetch(url)];
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get('x-total-count')).toBe(first.headers.get('x-total-count'));
    expect(await second.text()).toBe(await first.text());
  });
});

describe('--public-url: links start with the configured origin, whatever Host a client sends', () => {
  let server: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    server = await serve(['--db', dbPath, '--public-url', 'https://records.example.org/']);
  });
  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('uses it in Link targets instead of the request’s Host', async () => {
    const { port } = new URL(server.url);
    const response = await new Promise<{ link: string }>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(`GET ${deployments[0]!.basePath}/records?rows=2 HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`);
      });
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('end', () => resolve({ link: /^link: (.*)$/im.exec(text)?.[1] ?? '' }));
      socket.on('error', reject);
    });
    expect(response.link).toContain('<https://records.example.org/api/');
    expect(response.link).not.toContain('evil.example');
  });

  it('refuses what is not an http(s) origin', async () => {
    for (const bad of ['ftp://x.example', 'https://x.example/path', 'not a url', 'https://user@x.example']) {
      expectCleanFailure(await runToEnd(['serve', '--db', dbPath, '--port', '0', '--public-url', bad]), '--public-url', bad);
    }
  });
});

describe('--compat upstream: the opt-in profile for upstream scripts', () => {
  let server: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    server = await serve(['--db', dbPath, '--compat', 'upstream']);
  });
  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('answers an upstream script’s request that the spec server refuses', async () => {
    const response = await fetch(`${server.url}${deployments[0]!.basePath}/records?q=wind&fl=title&rows=2`);
    expect(response.status).toBe(200);
    expect(response.headers.get('warning')).toBe('299 - "Unknown parameters ignored: fl"');
  });

  it('refuses a profile it does not know', async () => {
    expectCleanFailure(await runToEnd(['serve', '--db', dbPath, '--port', '0', '--compat', 'lenient']), '--compat', 'lenient');
  });
});

// ---------------------------------------------------------------------------------------

/** Linux: the access mode of every descriptor `pid` holds on `path` (0 read-only, 1 write-only, 2 read-write). */
function accessModes(pid: number | 'self', path: string): number[] {
  const modes: number[] = [];
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target: string;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue;
    }
    if (target !== path) continue;
    const flags = /^flags:\s+([0-7]+)$/m.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'))?.[1];
    if (flags !== undefined) modes.push(Number.parseInt(flags, 8) & 0o3);
  }
  return modes;
}

const sideFiles = () => ['-wal', '-shm', '-journal'].filter((suffix) => existsSync(`${dbPath}${suffix}`));
// While it is read, a WAL file has its log and the log's index beside it: the log stays empty.
const logBytes = () => (existsSync(`${dbPath}-wal`) ? statSync(`${dbPath}-wal`).size : 0);

describe.runIf(existsSync('/proc/self/fdinfo'))('the served database is read-only', () => {
  it('openStore holds the file with a read-only descriptor, so the kernel itself refuses writes', async () => {
    const before = accessModes('self', dbPath).length;
    const store = openStore(dbPath);
    try {
      await store.count('LIT');
      const modes = accessModes('self', dbPath);
      expect(modes.length).toBeGreaterThan(before);
      expect(
        modes.every((mode) => mode === 0),
        `access modes ${modes.join(',')}`,
      ).toBe(true);
    } finally {
      await store.close();
    }
  });
});

describe('a serving process, then SIGTERM', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  let hashBefore: string;
  let mtimeBefore: number;

  beforeAll(async () => {
    hashBefore = sha256(dbPath);
    mtimeBefore = statSync(dbPath).mtimeMs;
    server = await serve(['--db', dbPath]);
  });

  it.runIf(existsSync('/proc/self/fdinfo'))('holds the database only through read-only descriptors', () => {
    const modes = accessModes(server.child.pid!, dbPath);
    expect(modes.length, 'the server has the database open').toBeGreaterThan(0);
    expect(
      modes.every((mode) => mode === 0),
      `access modes ${modes.join(',')}`,
    ).toBe(true);
  });

  it('answers many requests of every kind without writing to the database', async () => {
    const paths = deployments.flatMap((deployment) => [
      `${deployment.basePath}/records?q=wind&rows=5`,
      `${deployment.basePath}/records?title=solar&sort=title`,
      `${deployment.basePath}/records/1001`,
      `${deployment.basePath}/records/none-such`,
      `${deployment.basePath}/records?nope=1`,
      `${deployment.basePath}/records?page=3&rows=10`,
    ]);
    const accepts = ['application/json', 'application/xml', 'application/x-bibtex'];
    const statuses = new Map<number, number>();
    for (let round = 0; round < 4; round++) {
      await Promise.all(
        paths.map(async (path, i) => {
          const response = await fetch(`${server.url}${path}`, { headers: { Accept: accepts[(i + round) % 3]! } });
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        }),
      );
    }
    expect([...statuses.keys()].sort()).toEqual([200, 400, 404]);
    expect((await fetch(`${server.url}/files/fulltext/lit/1011.txt`)).status).toBe(200);
    expect(sideFiles()).not.toContain('-journal');
    expect(logBytes()).toBe(0);
    expect(sha256(dbPath)).toBe(hashBefore);
  });

  it('SIGTERM lets an in-flight request finish with 200, then the process exits 0', async () => {
    const port = Number(new URL(server.url).port);
    // An idle kept-alive connection, which must not hold the process open.
    const idle = connect(port, '127.0.0.1');
    idle.on('error', () => undefined);
    await new Promise<void>((resolve) => {
      idle.once('data', () => resolve());
      idle.write('GET /api/lit/v1/records?rows=1 HTTP/1.1\r\nHost: localhost\r\n\r\n');
    });

    // A request whose head has started arriving: in flight when the signal comes.
    const inFlight = connect(port, '127.0.0.1');
    let answer = '';
    inFlight.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    const answered = new Promise<void>((resolve) => inFlight.on('close', () => resolve()));
    await new Promise<void>((resolve) =>
      inFlight.write('GET /api/lit/v1/records?q=wind&rows=5 HTTP/1.1\r\nHost: localhost\r\n', () => resolve()),
    );
    // Time for the server to read the partial head (then the connection is not idle).
    await sleep(300);

    server.child.kill('SIGTERM');
    // The signal has been handled once the port stops taking new connections.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const refused = await new Promise<boolean>((resolve) => {
        const probe = connect(port, '127.0.0.1');
        probe.on('connect', () => {
          probe.destroy();
          resolve(false);
        });
        probe.on('error', () => resolve(true));
      });
      if (refused) break;
      expect(Date.now() < deadline, 'still accepting connections 15 s after SIGTERM').toBe(true);
      await sleep(50);
    }
    expect(server.child.exitCode, 'exited with a request in flight').toBeNull();

    inFlight.write('Accept: application/json\r\n\r\n');
    await Promise.race([answered, sleep(15_000)]);
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(head.toLowerCase()).toContain('connection: close');
    const ids = (JSON.parse(body) as { repo_id: string }[]).map((record) => record.repo_id).sort();
    expect(ids).toEqual(['1001', '1002', '1004', '1010']);

    const exit = await Promise.race([server.exited, sleep(15_000).then(() => undefined)]);
    expect(exit, 'the process exits within 15 s of SIGTERM').toBeDefined();
    expect(exit!.code).toBe(0);
    // Nothing but the start's progress (the test below).
    expect(exit!.stderr.split('\n').filter((line) => line && !progressLine.test(line))).toEqual([]);
  });

  it('after serving, the database file is byte-for-byte and mtime unchanged, with no journal left', () => {
    expect(sha256(dbPath)).toBe(hashBefore);
    expect(statSync(dbPath).mtimeMs).toBe(mtimeBefore);
    expect(sideFiles()).toEqual([]);
  });
});

describe('a store on read-only media', () => {
  // A read-only bind mount of a folder holding a copy of the store, which needs root.
  const media = join(dir, 'media');
  const view = join(dir, 'media-view');
  let mounted = false;

  beforeAll(() => {
    mkdirSync(media);
    mkdirSync(view);
    copyFileSync(dbPath, join(media, 'records.db'));
    try {
      execFileSync('mount', ['--bind', '-o', 'ro', media, view], { stdio: 'pipe' });
      mounted = true;
    } catch (error) {
      const reason = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim();
      console.log(`Skipping the read-only media test: cannot make a read-only bind mount (${reason}).`);
    }
  });
  afterAll(() => {
    if (mounted) execFileSync('umount', [view]);
  });

  it('is served as from a writable folder, though SQLite can make nothing beside it there', async (context) => {
    if (!mounted) return context.skip();
    expect(() => writeFileSync(join(view, 'probe'), '')).toThrow(/EROFS/);
    // The two answer alike, links included.
    const sameLinks = ['--public-url', 'https://records.example.org/'];
    const [onMedia, writable] = await Promise.all([
      serve(['--db', join(view, 'records.db'), ...sameLinks]),
      serve(['--db', dbPath, ...sameLinks]),
    ]);
    try {
      for (const path of [
        `${deployments[0]!.basePath}/records?q=wind&rows=5`,
        `${deployments[0]!.basePath}/records?q=solar%20OR%20cell&sort=title&rows=3`,
        `${deployments[0]!.basePath}/facets?q=wind&facet=country`,
      ]) {
        const [fromMedia, fromWritable] = await Promise.all([fetch(onMedia.url + path), fetch(writable.url + path)]);
        expect(fromMedia.status, path).toBe(200);
        expect(fromMedia.headers.get('x-total-count'), path).toBe(fromWritable.headers.get('x-total-count'));
        expect(await fromMedia.text(), path).toBe(await fromWritable.text());
      }
      expect(readdirSync(view)).toEqual(['records.db']);
    } finally {
      for (const server of [onMedia, writable]) server.child.kill('SIGTERM');
    }
    const exits = await Promise.all([onMedia.exited, writable.exited]);
    expect(
      exits.map(({ code, stderr }) => ({ code, stderr: stderr.split('\n').filter((line) => line && !progressLine.test(line)) })),
    ).toEqual([
      { code: 0, stderr: [] },
      { code: 0, stderr: [] },
    ]);
  });
});
