import type pg from 'pg';
import { pgDriver } from './pg-driver';
import { changesChannel } from './pg-schema';

/** The pause before the primary is listened to again after the connection was lost. */
const relistenMs = 5_000;

export interface CommitListener {
  close(): Promise<void>;
}

/**
 * Listens to the primary's commit notifications (`LISTEN`), calling `wake(true)` on each and
 * `wake(false)` whenever listening (re)starts, since a commit may have come meanwhile. A lost
 * connection is said once and listened to again `relistenMs` later; polling goes on meanwhile.
 */
export function listenForCommits(
  primary: string,
  { pollMs, log, wake }: { pollMs: number; log: (line: string) => void; wake: (notified: boolean) => void },
): CommitListener {
  let closed = false;
  let listener: pg.Client | undefined;
  let relisten: NodeJS.Timeout | undefined;
  let listening = true;
  const listen = () => {
    const client = new (pgDriver().Client)({ connectionString: primary, connectionTimeoutMillis: relistenMs });
    listener = client;
    const lost = (error?: Error) => {
      if (closed || listener !== client) return;
      listener = undefined;
      client.end().catch(() => undefined);
      if (listening)
        log(
          `not notified of commits by the primary (${error?.message ?? 'connection closed'}); polling every ${pollMs / 1000} s meanwhile`,
        );
      listening = false;
      relisten = setTimeout(listen, relistenMs);
    };
    client.on('notification', () => wake(true));
    client.on('error', lost);
    client.on('end', () => lost());
    client
      .connect()
      .then(() => client.query(`LISTEN ${changesChannel}`))
      .then(() => {
        listening = true;
        // A commit may have come while not listening.
        wake(false);
      }, lost);
  };
  listen();
  return {
    async close() {
      closed = true;
      clearTimeout(relisten);
      await listener?.end().catch(() => undefined);
    },
  };
}
