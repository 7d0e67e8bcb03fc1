import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** Child processes of the benchmark: the records server and the in-memory baseline server. */

export const repoRoot = fileURLToPath(new URL('../', import.meta.url));

/**
 * `BENCH_PORTS=first-last` (e.g. 47200-47299) keeps the benchmark's servers in a range of
 * ports given to it on a shared machine; without it, any free port.
 */
const portRange = /^(\d+)-(\d+)$/.exec(process.env.BENCH_PORTS ?? '');
let nextInRange = portRange ? Number(portRange[1]) : 0;

function probePort(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(undefined));
    probe.listen(port, '127.0.0.1', () => {
      const { port: bound } = probe.address() as { port: number };
      probe.close(() => resolve(bound));
    });
  });
}

export async function freePort(): Promise<number> {
  if (!portRange) {
    const port = await probePort(0);
    if (port === undefined) throw new Error('no free port');
    return port;
  }
  const [first, last] = [Number(portRange[1]), Number(portRange[2])];
  for (let tries = 0; tries <= last - first; tries++) {
    const port = nextInRange;
    nextInRange = port >= last ? first : port + 1;
    if ((await probePort(port)) !== undefined) return port;
  }
  throw new Error(`no free port in BENCH_PORTS=${process.env.BENCH_PORTS}`);
}

export interface Child {
  readonly url: string;
  readonly pid: number;
  /** Everything the process wrote, for the report when something goes wrong. */
  readonly output: () => string;
  stop(): Promise<void>;
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server not ready after ${seconds} s:\n${output()}`);
}

/** `port` keeps a restarted server at the address it had (a harvest source, say); else a free one. */
export async function startChild(
  command: string,
  args: string[],
  readyPath: string,
  env: NodeJS.ProcessEnv = {},
  port?: number,
  /** How long it may take to answer `readyPath` (a PostgreSQL server first builds its index). */
  readySeconds = 120,
): Promise<Child> {
  port ??= await freePort();
  const finalArgs = args.map((arg) => (arg === '{port}' ? String(port) : arg));
  const child = spawn(command, finalArgs, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const append = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const url = `http://127.0.0.1:${port}`;
  const output = () => log;
  try {
    await waitUntilReady(url + readyPath, child, output, readySeconds);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url,
    pid: child.pid!,
    output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** `records serve` from the repository's own command, which runs the worker-thread pool. */
export function startRecordsServer(db: string, staticDir?: string, extraArgs: readonly string[] = []): Promise<Child> {
  const args = ['bin/records.js', 'serve', '--db', db, '--port', '{port}', ...extraArgs];
  if (staticDir) args.push('--static', staticDir);
  return startChild(process.execPath, args, '/api/lit/v1/records?rows=1');
}

/** The in-memory baseline: a prebuilt page from a file, answered without any work. */
export function startBaselineServer(pageFile: string): Promise<Child> {
  const script = fileURLToPath(new URL('./baseline-server.mjs', import.meta.url));
  return startChild(process.execPath, [script, pageFile, '{port}'], '/');
}
