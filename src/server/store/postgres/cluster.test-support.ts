import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Throwaway PostgreSQL clusters for tests and benchmarks: a primary on a free loopback
 * port and streaming replicas made by `pg_basebackup -R`. PostgreSQL refuses to run as
 * root, so as root every command runs as the `postgres` user in directories it owns.
 */

const run = promisify(execFile);

/** Debian installs the server binaries here, outside PATH. */
export function postgresBinDir(): string | undefined {
  for (const version of ['17', '16', '15']) {
    const dir = `/usr/lib/postgresql/${version}/bin`;
    if (existsSync(join(dir, 'initdb'))) return dir;
  }
  return undefined;
}

/** Why PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresUnavailable(): string | undefined {
  if (!postgresBinDir()) return 'PostgreSQL server binaries not found (apt-get install postgresql)';
  if (userInfo().uid === 0 && !existsSync('/usr/sbin/runuser')) return 'running as root without runuser to drop to the postgres user';
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function asPostgres(command: string, args: readonly string[]) {
  const bin = join(postgresBinDir()!, command);
  return userInfo().uid === 0 ? run('runuser', ['-u', 'postgres', '--', bin, ...args]) : run(bin, args);
}

async function ownedDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  if (userInfo().uid === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout), Number(gid));
  }
  return dir;
}

export interface PgServer {
  readonly port: number;
  /** A connection URL for the database `records` on this server. */
  readonly url: string;
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts a stopped server again, on the same port with the same data. */
  start(): Promise<void>;
  isRunning(): Promise<boolean>;
}

async function startServer(dataDir: string, socketDir: string, port: number): Promise<PgServer> {
  const options = `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c fsync=off -c wal_level=replica -c max_wal_senders=8 -c hot_standby=on`;
  const start = async () => {
    await asPostgres('pg_ctl', ['start', '-w', '-t', '60', '-D', dataDir, '-l', join(dataDir, 'server.log'), '-o', options]);
  };
  await start();
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/records`,
    start,
    async stop(mode = 'fast') {
      await asPostgres('pg_ctl', ['stop', '-w', '-m', mode, '-D', dataDir]).catch(() => undefined);
    },
    async isRunning() {
      return asPostgres('pg_ctl', ['status', '-D', dataDir]).then(
        () => true,
        () => false,
      );
    },
  };
}

export interface PgCluster {
  readonly primary: PgServer;
  readonly replicas: PgServer[];
  /** Adds a streaming replica of the primary and waits until it accepts reads. */
  addReplica(): Promise<PgServer>;
  /** Stops every server and removes every directory. */
  destroy(): Promise<void>;
}

/** `port` picks each server's port (a benchmark keeps them in its range); any free one by default. */
export async function startCluster({ port = freePort }: { port?: () => Promise<number> } = {}): Promise<PgCluster> {
  const dirs: string[] = [];
  const servers: PgServer[] = [];
  const socketDir = await ownedDir('records-pg-sock-');
  dirs.push(socketDir);
  const primaryDir = await ownedDir('records-pg-primary-');
  dirs.push(primaryDir);
  await asPostgres('initdb', ['-D', primaryDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const primary = await startServer(primaryDir, socketDir, await port());
  servers.push(primary);
  await asPostgres('createdb', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', 'records']);
  const replicas: PgServer[] = [];
  return {
    primary,
    replicas,
    async addReplica() {
      const dir = await ownedDir('records-pg-replica-');
      dirs.push(dir);
      await asPostgres('pg_basebackup', [
        '-h',
        '127.0.0.1',
        '-p',
        String(primary.port),
        '-U',
        'postgres',
        '-D',
        dir,
        '-R',
        '-X',
        'stream',
        '--checkpoint=fast',
        '--no-sync',
      ]);
      const replica = await startServer(dir, socketDir, await port());
      servers.push(replica);
      replicas.push(replica);
      return replica;
    },
    async destroy() {
      for (const server of servers.reverse()) await server.stop('immediate');
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    },
  };
}
