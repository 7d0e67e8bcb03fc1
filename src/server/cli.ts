import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { deploymentByKey, deployments, displayName } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { generateRecords } from './corpus/generate';
import { harvestFlags, harvestUsage, runHarvestCommand } from './harvest/command';
import { HarvestError } from './harvest/request';
import { startServer } from './http/server';
import { ImportError } from './import/upstream';
import { readUpstreamFiles } from './import/files';
import { CostBook } from './store/admission';
import { defaultCacheBytes } from './store/cached-store';
import { defaultBudgetMs, openPooledStore } from './store/pooled-store';
import { reloadingStore } from './store/reloading-store';
import { openRecordWriter, type StoreLocation } from './store/open-writer';
import { StoreReplaced } from './store/sqlite/record-writer';
import { openPgStore } from './store/postgres/pg-store';
import { primaryName } from './store/postgres/pg-writer';
import type { RecordStore, RecordWriter } from './store/types';

/** The `records` command line: serve, generate, import, harvest, and `start` for `npm start`. */

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const defaultDbPath = resolve(repoRoot, 'data/records.db');
/** Where `serve --store postgres://…` keeps its local index when --index-dir is not given. */
const defaultIndexDir = resolve(repoRoot, 'data/pg-index');
const defaultStaticDir = resolve(repoRoot, 'dist');
/** Real upstream records shipped with the project (see data/real/README.md). */
const realDataDir = resolve(repoRoot, 'data/real');
/** A shipped real record that every database `records start` creates holds. */
const shippedRecord = { deployment: 'DC1', repoId: '1562055' } as const;
/** Generated records per deployment in the default database. */
const starterCount = 5000;
const mib = 1024 * 1024;

const usage = `Usage:
  records serve [--db PATH | --store URL[,REPLICA_URL...]] [--port N] [--host H] [--static DIR] [--token-file PATH] [--bibtex-prefix P] [--search-cache-mb N] [--public-url URL] [--allowed-hosts H1,H2] [--max-connections N] [--query-budget-ms N] [--compat upstream] [--index-dir DIR]
  records generate <DEPLOYMENT> <COUNT> [--db PATH | --store URL] [--seed N]
  records import <DEPLOYMENT> <FILE...> [--db PATH | --store URL]
  ${harvestUsage}
  records start      create the default database if missing, then serve the app and all APIs
DEPLOYMENT is one of ${deployments.map((d) => d.key).join(', ')} (any case). PATH defaults to data/records.db.
--store postgres://user@host:port/db[,postgres://replica...] uses PostgreSQL: the first URL is the primary, reads go to the replicas.
  A server answers from a local index of the store in --index-dir (default data/pg-index), built when missing, that follows every committed write.
--search-cache-mb is the memory for remembered search orders (default ${defaultCacheBytes / mib}); 0 ranks every search afresh.`;

/** The command line itself is wrong: the message is followed by the usage text. */
class UsageError extends Error {}
/** The command was understood but cannot be carried out (a missing file, a busy port). */
class CommandError extends Error {}

interface Parsed {
  positional: string[];
  flags: Map<string, string>;
}

const knownFlags = new Set([
  'db',
  'store',
  'public-url',
  'port',
  'host',
  'static',
  'token-file',
  'bibtex-prefix',
  'search-cache-mb',
  'allowed-hosts',
  'max-connections',
  'query-budget-ms',
  'compat',
  'index-dir',
  'seed',
  ...harvestFlags,
]);

function parseArgs(args: readonly string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      if (!knownFlags.has(name)) throw new UsageError(`Unknown option --${name}.`);
      const value = inline ?? args[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value.`);
      flags.set(name, value);
    } else {
      positional.push(arg);
    }
  }
  return { positional, flags };
}

function wholeNumber(text: string | undefined, what: string, min = 0): number {
  const value = Number(text);
  if (!text || !/^\d+$/.test(text) || value < min || !Number.isSafeInteger(value))
    throw new UsageError(`${what} must be a whole number of at least ${min}; got '${text ?? ''}'.`);
  return value;
}

function deploymentArg(text: string | undefined): Deployment {
  const deployment = text ? deploymentByKey(text) : undefined;
  if (!deployment) throw new UsageError(`Unknown deployment '${text ?? ''}'; use one of ${deployments.map((d) => d.key).join(', ')}.`);
  return deployment;
}

function dbPath(flags: Map<string, string>): string {
  if (flags.has('store')) throw new UsageError('--db and --store name two different stores; give one.');
  const path = resolve(flags.get('db') ?? defaultDbPath);
  mkdirSync(dirname(path), { recursive: true });
  return path;
}

/** What a failed write tells the operator: one sentence, a full disk named as such. */
function writeFailure(location: StoreLocation, error: unknown): unknown {
  // The input's own faults keep their message.
  if (error instanceof ImportError) return error;
  const message = (error as Error).message.replace(/\.$/, '');
  if ('storeUrl' in location) {
    // One sentence: the run was one transaction, so none of it was kept.
    return new CommandError(`Cannot write to the store (${message}); nothing of this run was kept.`);
  }
  const code = (error as { code?: string }).code;
  if (error instanceof StoreReplaced) return new CommandError(`Cannot write to the database ${location.db}: ${error.message}.`);
  if ((error as Error).name !== 'SqliteError' && code !== 'ENOSPC') return error;
  const reason = code === 'SQLITE_FULL' || code === 'ENOSPC' ? 'the disk is full' : message;
  return new CommandError(`Cannot write to the database ${location.db} (${reason}); it is unchanged.`);
}

/** --db or --store: the store a command writes or serves. */
function storeLocation(flags: Map<string, string>): StoreLocation {
  const storeUrl = flags.get('store');
  if (storeUrl === undefined) return { db: dbPath(flags) };
  if (flags.has('db')) throw new UsageError('--db and --store name two different stores; give one.');
  return { storeUrl };
}

/**
 * One run of writes, through the store's writer (store/open-writer.ts): a new SQLite file
 * appears whole when the run ends, an existing one or PostgreSQL takes each put() as one
 * transaction, so a failed or killed run leaves the previous committed state.
 */
async function writeRecords(location: StoreLocation, write: (writer: RecordWriter) => Promise<number>): Promise<number> {
  let writer: RecordWriter;
  try {
    writer = await openRecordWriter(location, { wholeNewFile: true });
  } catch (error) {
    if ('storeUrl' in location) throw new CommandError(`Cannot write to the store: ${(error as Error).message}`);
    // A corrupt or foreign file at the path: say so.
    if ((error as Error).name === 'SqliteError' || (error as Error).message.includes('store schema')) throw writeFailure(location, error);
    throw error;
  }
  try {
    const written = await write(writer);
    await writer.close();
    return written;
  } catch (error) {
    await writer.discard().catch(() => undefined);
    throw writeFailure(location, error);
  }
}

/** Ids continue after what the deployment holds, so repeated runs add records. */
function generateInto(location: StoreLocation, deployment: Deployment, count: number, seed: number): Promise<number> {
  return writeRecords(location, async (writer) => {
    const startId = 50_000_001 + (await writer.count(deployment.key));
    return writer.put(deployment.key, generateRecords(deployment, count, { seed, startId }));
  });
}

function importInto(location: StoreLocation, deployment: Deployment, files: readonly string[]): Promise<number> {
  // Everything is parsed before anything is written.
  const records = readUpstreamFiles(deployment, files);
  return writeRecords(location, (writer) => writer.put(deployment.key, records));
}

/** The real records shipped beside the project, by deployment. */
function realDataFiles(): [Deployment, string[]][] {
  if (!existsSync(realDataDir)) return [];
  const files = (names: string[]) => names.map((name) => resolve(realDataDir, name)).filter((file) => existsSync(file));
  return [
    [deploymentByKey('DC1')!, files(['dc-v1-geothermal-and-more-250.json', 'dc-v1-plasma-lab-209.json'])],
    [deploymentByKey('LIT')!, files(['lit-v1-datasets-40.json', 'lit-v1-datasets-xml-sample.xml'])],
  ];
}

/** Builds the starter database beside the target and moves it into place when complete. */
async function createStarterDatabase(path: string): Promise<void> {
  const building = { db: `${path}.building` };
  rmSync(building.db, { force: true });
  for (const [deployment, files] of realDataFiles()) {
    if (files.length === 0) continue;
    console.log(`  imported ${await importInto(building, deployment, files)} real ${deployment.key} records`);
  }
  for (const deployment of deployments) {
    console.log(`  generated ${await generateInto(building, deployment, starterCount, 1)} ${deployment.key} records`);
  }
  renameSync(building.db, path);
}

/** The token in `--token-file`, if given: the one a private mirror asks for, or sends. */
function tokenFromFile(flags: Map<string, string>): string | undefined {
  const tokenFile = flags.get('token-file');
  if (!tokenFile) return undefined;
  let token: string;
  try {
    token = readFileSync(tokenFile, 'utf8').trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    throw new CommandError(`Cannot read the token file ${tokenFile}: ${reason}.`);
  }
  if (!token) throw new CommandError(`The token file ${tokenFile} is empty.`);
  return token;
}

/**
 * --public-url: the origin Link targets and local record links start with, instead of the
 * request's Host header (which a client chooses).
 */
function publicOrigin(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--public-url must be an http(s) URL such as https://records.example.org; got '${value}'.`);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.search ||
    url.hash ||
    url.username ||
    (url.pathname !== '/' && url.pathname !== '')
  ) {
    throw new UsageError(`--public-url must be an http(s) origin with no path, query or credentials; got '${value}'.`);
  }
  return url.origin;
}

/** --allowed-hosts: host names, each optionally with a port, separated by commas. */
function allowedHosts(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const hosts = value
    .split(',')
    .map((host) => host.trim())
    .filter(Boolean);
  const bad = hosts.find((host) => !/^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.test(host));
  if (hosts.length === 0 || bad !== undefined) {
    throw new UsageError(`--allowed-hosts takes host names such as records.example.org,localhost:8080; got '${bad ?? value}'.`);
  }
  return hosts;
}

/** --compat: the only profile is `upstream` (src/server/http/upstream-compat.ts). */
function compatProfile(value: string | undefined): 'upstream' | undefined {
  if (value === undefined) return undefined;
  if (value !== 'upstream') throw new UsageError(`--compat takes one profile, upstream; got '${value}'.`);
  return value;
}

/** What a start is doing while it warms up, on stderr, so a wait of seconds is not a silent one. */
const progress = (line: string) => console.error(`records: ${line}`);

/**
 * Opens the served store's first pool saying how far its warm-up has come: each search
 * worker reading the search index, then the facet values. Later generations (a file moved
 * over the served one) open quietly.
 */
function pooledWithProgress(open: (file: string, onWorker?: (worker: Worker) => void) => Promise<RecordStore>) {
  let first = true;
  return async (file: string): Promise<RecordStore> => {
    if (!first) return open(file);
    first = false;
    progress(`opening ${file}`);
    // The pool starts its first workers at once, before any of them can say it is ready, and
    // the rest after its first answers (PoolOptions.readyWith): those the server does not wait for.
    let started = 0;
    let ready = 0;
    const store = await open(file, (worker) => {
      if (started > 0 && ready === started) return;
      started++;
      const onReady = (message: unknown) => {
        if (typeof message !== 'object' || message === null || !('ready' in message)) return;
        worker.off('message', onReady);
        progress(`search workers ready ${++ready}/${started}`);
      };
      worker.on('message', onReady);
    });
    progress('reading the facet values (the filters and their counts)');
    void store.facetsWarm?.then(() => progress('facet values read'));
    return store;
  };
}

/** The store to serve: PostgreSQL at --store, else the SQLite file at --db on worker threads. */
async function openServedStore(
  flags: Map<string, string>,
  cacheMb: number,
  budgetMs: number,
): Promise<{ store: RecordStore; name: string }> {
  // What each kind of search has cost is learnt once for the process, not again per generation.
  const costs = new CostBook();
  const openPool = pooledWithProgress((file, onWorker) =>
    openPooledStore(file, { cacheBytes: cacheMb * mib, budgetMs, costs, readyWith: 2, ...(onWorker && { onWorker }) }),
  );
  const url = flags.get('store');
  if (url !== undefined) {
    if (flags.has('db')) throw new UsageError('--db and --store name two different stores; give one.');
    try {
      const indexDir = resolve(flags.get('index-dir') ?? defaultIndexDir);
      return { store: await openPgStore(url, { indexDir, open: openPool }), name: primaryName(url) };
    } catch (error) {
      throw new CommandError(`Cannot open the store: ${(error as Error).message}`);
    }
  }
  const path = dbPath(flags);
  if (!existsSync(path))
    throw new CommandError(`No database at ${path}. Create one with 'records generate' or 'records import', or run 'npm start'.`);
  try {
    // Imports into the served file, or a file moved over it, are picked up while serving.
    return { store: await reloadingStore(path, openPool), name: path };
  } catch (error) {
    throw new CommandError(`Cannot open the database ${path}: ${(error as Error).message}`);
  }
}

async function serve(flags: Map<string, string>, staticDir: string | undefined, { expectShipped = false } = {}): Promise<void> {
  const token = tokenFromFile(flags);
  // Checked before the store starts its worker threads, which would keep a failed start alive.
  const port = wholeNumber(flags.get('port') ?? process.env.PORT ?? '8080', 'The port');
  if (port > 65535) throw new UsageError(`The port must be at most 65535; got ${port}.`);
  const host = flags.get('host') ?? '127.0.0.1';
  const cacheMb = wholeNumber(flags.get('search-cache-mb') ?? String(defaultCacheBytes / mib), '--search-cache-mb');
  const publicUrl = publicOrigin(flags.get('public-url'));
  const compat = compatProfile(flags.get('compat'));
  const hosts = allowedHosts(flags.get('allowed-hosts'));
  const maxConnections = flags.has('max-connections') ? wholeNumber(flags.get('max-connections'), '--max-connections') : undefined;
  const budgetMs = wholeNumber(flags.get('query-budget-ms') ?? String(defaultBudgetMs), '--query-budget-ms');
  const { store, name } = await openServedStore(flags, cacheMb, budgetMs);
  let server;
  try {
    server = await startServer({
      store,
      port,
      host,
      ...(staticDir && existsSync(resolve(staticDir, 'index.html')) ? { staticDir } : {}),
      ...(flags.has('bibtex-prefix') ? { bibtexPrefix: flags.get('bibtex-prefix')! } : {}),
      ...(token ? { token } : {}),
      ...(publicUrl ? { publicUrl } : {}),
      ...(compat ? { compat } : {}),
      ...(hosts ? { allowedHosts: hosts } : {}),
      ...(maxConnections ? { flow: { maxConnections } } : {}),
    });
  } catch (error) {
    await store.close();
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EADDRINUSE'
        ? 'the port is in use'
        : code === 'EADDRNOTAVAIL'
          ? 'no such address on this machine'
          : code === 'EACCES'
            ? 'permission denied'
            : (error as Error).message;
    throw new CommandError(`Cannot listen on ${host}:${port}: ${reason}.`);
  }
  // On a signal: stop accepting, let in-flight requests finish, then exit. A client that
  // holds its connection open does not keep the process alive past the grace period.
  // Installed as soon as the port is open, so a signal during the rest of startup is
  // graceful too.
  const stop = async () => {
    setTimeout(() => process.exit(0), 10_000).unref();
    await server.close();
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  progress(`ready at ${server.url}/`);
  console.log(`Records Explorer is serving ${name}`);
  if (expectShipped && !(await store.get(shippedRecord.deployment, shippedRecord.repoId))) {
    console.log(
      `  This database predates the real records shipped in data/real. To rebuild it, stop the server, remove ${name} and run 'npm start' again.`,
    );
  }
  if (staticDir && existsSync(resolve(staticDir, 'index.html'))) console.log(`  app: ${server.url}/`);
  for (const deployment of deployments) {
    console.log(
      `  ${displayName(deployment).padEnd(44)} ${server.url}${deployment.basePath}/records  (${await store.count(deployment.key).catch(() => 'unknown number of')} records)`,
    );
  }
}

export async function main(args: readonly string[]): Promise<number> {
  const [command, ...rest] = args;
  try {
    const { positional, flags } = parseArgs(rest);
    switch (command) {
      case 'serve':
        await serve(flags, flags.get('static') ?? defaultStaticDir);
        return 0;
      case 'start': {
        const path = dbPath(flags);
        if (!existsSync(path)) {
          console.log(`Creating ${path} (real records plus ${starterCount} generated per deployment)...`);
          await createStarterDatabase(path);
        }
        await serve(flags, defaultStaticDir, { expectShipped: true });
        return 0;
      }
      case 'generate': {
        const deployment = deploymentArg(positional[0]);
        const count = wholeNumber(positional[1], 'COUNT', 1);
        const seed = wholeNumber(flags.get('seed') ?? '1', '--seed');
        const started = Date.now();
        const written = await generateInto(storeLocation(flags), deployment, count, seed);
        console.log(`Generated ${written} ${deployment.key} records in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
        return 0;
      }
      case 'import': {
        const deployment = deploymentArg(positional[0]);
        if (positional.length < 2) throw new UsageError('import needs at least one FILE.');
        const files = positional.slice(1);
        const written = await importInto(storeLocation(flags), deployment, files);
        console.log(`Imported ${written} ${deployment.key} records.`);
        return 0;
      }
      case 'harvest': {
        const deployment = deploymentArg(positional[0]);
        if (positional.length > 2) throw new UsageError('harvest takes one DEPLOYMENT and one BASE_URL.');
        const token = tokenFromFile(flags);
        return await runHarvestCommand({ deployment, baseUrl: positional[1], flags, defaultDbPath, ...(token ? { token } : {}) });
      }
      case undefined:
      case 'help':
      case '--help':
        console.log(usage);
        return command ? 0 : 2;
      default:
        throw new UsageError(`Unknown command '${command}'.`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof CommandError || error instanceof ImportError || error instanceof HarvestError) {
      console.error(`records: ${error.message}`);
      if (error instanceof UsageError) {
        console.error(`\n${usage}`);
        return 2;
      }
      return 1;
    }
    throw error;
  }
}
