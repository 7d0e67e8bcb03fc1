import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Deployment } from '../../deployments/schema';
import { parseDateParam, type Day } from '../../formats/dates';
import { harvest } from './harvest';
import { createProgress } from './progress';
import { HarvestError, type PageFormat } from './request';
import { summarize } from './summary';

/** `records harvest`: its options, the User-Agent, signals, progress and the closing account. */

/** Options only `harvest` takes; --db, --store and --token-file are the CLI's own. */
export const harvestFlags = ['since', 'format', 'concurrency', 'contact', 'timeout'] as const;
export const harvestUsage =
  'records harvest <DEPLOYMENT> <BASE_URL> [--since DATE] [--db PATH | --store URL] [--token-file PATH] [--format json|xml] [--concurrency N] [--contact EMAIL_OR_URL] [--timeout SECONDS]';

/** Pages in flight at most: a mirror must not weigh on the source it copies. */
export const maxConcurrency = 4;

export interface HarvestCommandInput {
  readonly deployment: Deployment;
  readonly baseUrl: string | undefined;
  readonly flags: ReadonlyMap<string, string>;
  readonly defaultDbPath: string;
  readonly token?: string;
}

const version = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The base URL as given, minus a trailing slash or `/records`; http(s) only. */
export function normalizeBaseUrl(text: string | undefined): string {
  if (!text) throw new HarvestError('harvest needs the BASE_URL of the source deployment, for example https://host/api/dc/v1.');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new HarvestError(`'${text}' is not a URL; give the source's base URL, for example https://host/api/dc/v1.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new HarvestError(`The base URL must be http or https; got ${url.protocol}`);
  if (url.search || url.hash) throw new HarvestError('The base URL takes no query or fragment; the harvest adds its own parameters.');
  if (url.username || url.password)
    throw new HarvestError('The base URL must not carry a user name or password; use --token-file for a token.');
  return url.href.replace(/\/+$/, '').replace(/\/records$/, '');
}

/**
 * `--db PATH`, or `--store URL` as the other commands take it: `sqlite:PATH` or `file:PATH`
 * is a SQLite file, `postgres://…` the PostgreSQL store (its primary).
 */
export function storeTarget(flags: ReadonlyMap<string, string>, defaultDbPath: string): { dbPath: string; storeUrl?: string } {
  const store = flags.get('store');
  let path = flags.get('db') ?? defaultDbPath;
  if (store !== undefined) {
    if (flags.has('db')) throw new HarvestError('Give either --db or --store, not both.');
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(store)?.[1]?.toLowerCase();
    if (scheme === 'postgres' || scheme === 'postgresql') return { dbPath: '', storeUrl: store };
    if (scheme !== 'sqlite' && scheme !== 'file') throw new HarvestError(`--store takes sqlite:PATH or a postgres:// URL; got '${store}'.`);
    path = store.slice(scheme.length + 1).replace(/^\/\/(?=\/)/, '');
    if (!path) throw new HarvestError('--store sqlite: needs a file path after the colon.');
  }
  const absolute = resolve(path);
  mkdirSync(dirname(absolute), { recursive: true });
  return { dbPath: absolute };
}

function sinceDay(deployment: Deployment, text: string | undefined): Day | undefined {
  if (text === undefined) return undefined;
  const day = parseDateParam(text.trim(), deployment.dateFormat);
  if (!day) throw new HarvestError(`--since must be a real date written as ${deployment.dateFormat} or YYYY-MM-DD; got '${text}'.`);
  return day;
}

function formatOf(text: string | undefined): PageFormat {
  const format = (text ?? 'json').toLowerCase();
  if (format !== 'json' && format !== 'xml') throw new HarvestError(`--format must be json or xml; got '${text}'.`);
  return format;
}

function boundedNumber(text: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new HarvestError(`--${name} must be a whole number from ${min} to ${max}; got '${text}'.`);
  return value;
}

/**
 * Who is harvesting, for the source's operators: the product and version, and how to
 * reach the person running it. Only visible ASCII goes into the header.
 */
export function userAgentFor(contact: string | undefined): string {
  if (contact === undefined) return `records-explorer/${version} (harvest)`;
  const value = contact.trim();
  const isEmail = /^[^\s@<>()";]+@[^\s@<>()";]+\.[^\s@<>()";]+$/.test(value);
  let isUrl: boolean;
  try {
    isUrl = ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    isUrl = false;
  }
  if ((!isEmail && !isUrl) || !/^[\x21-\x7e]+$/.test(value) || /[()]/.test(value)) {
    throw new HarvestError(`--contact must be an e-mail address or an http(s) URL; got '${contact}'.`);
  }
  return `records-explorer/${version} (harvest; +${value})`;
}

export async function runHarvestCommand(input: HarvestCommandInput): Promise<number> {
  const { deployment, flags } = input;
  const baseUrl = normalizeBaseUrl(input.baseUrl);
  const since = sinceDay(deployment, flags.get('since'));
  const format = formatOf(flags.get('format'));
  const concurrency = boundedNumber(flags.get('concurrency'), 'concurrency', 1, 1, maxConcurrency);
  const timeoutMs = boundedNumber(flags.get('timeout'), 'timeout', 60, 1, 3600) * 1000;
  const userAgent = userAgentFor(flags.get('contact'));
  const { dbPath, storeUrl } = storeTarget(flags, input.defaultDbPath);
  // It goes into a header: anything else would fail every request, which is no reason to retry.
  if (input.token !== undefined && !/^[\x21-\x7e]+$/.test(input.token)) {
    throw new HarvestError('The token in --token-file must be visible ASCII without spaces or line breaks.');
  }

  const stop = new AbortController();
  // While a batch is written the thread is the write's until it commits, so no handler could
  // run: a signal then ends the process as it would without one, and the store keeps its last
  // committed batch (an interrupted transaction is rolled back). After the first signal too,
  // a second one ends the process at once.
  const listen = (on: boolean) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      if (on && !stop.signal.aborted) process.on(signal, onSignal);
      else process.off(signal, onSignal);
    }
  };
  const onSignal = (signal: NodeJS.Signals) => {
    listen(false);
    process.stderr.write(`\n${signal}: stopping; what was received since the last batch written is fetched again by the next run...\n`);
    stop.abort();
  };
  listen(true);
  const progress = createProgress(process.stderr, `${deployment.key} from ${baseUrl}`);
  try {
    const report = await harvest({
      deployment,
      baseUrl,
      dbPath,
      ...(storeUrl ? { storeUrl } : {}),
      format,
      concurrency,
      timeoutMs,
      userAgent,
      stop: stop.signal,
      writing: (busy) => listen(!busy),
      progress,
      ...(since ? { since } : {}),
      ...(input.token ? { token: input.token } : {}),
    });
    for (const line of summarize(report, deployment.key, baseUrl)) console.log(line);
    return report.stopped ? 130 : 0;
  } finally {
    listen(false);
  }
}
