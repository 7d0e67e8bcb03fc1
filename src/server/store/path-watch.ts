import { statSync } from 'node:fs';
import { openForReading } from './sqlite/open-for-reading';
import { claimLog } from './sqlite/store-log';
import type { Generations, Identity } from './served-generations';
import type { RecordStore } from './types';

/** When the served path is looked at (ReloadOptions). */
export interface WatchOptions {
  /** How often the path is looked at. */
  readonly checkMs?: number;
  /** The longest pause between attempts on a path that cannot be opened. */
  readonly maxBackoffMs?: number;
  /** Called after each attempt that could not open the path, with the failures in a row so far. */
  readonly onFailure?: (failures: number) => void;
}

/**
 * The file at `path` as it is now: which file, and the revision its writer left. A file not
 * seen before (another moved over the path) is opened with its own log only (store-log.ts).
 */
export function identityOf(path: string, known: Identity | undefined, log: (line: string) => void): Identity {
  const stat = statSync(path);
  if (known?.inode !== stat.ino || known.device !== stat.dev) {
    const setAside = claimLog(path);
    if (setAside) log(setAside);
  }
  const { db } = openForReading(path);
  try {
    const row = db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'revision'`).get();
    return { inode: stat.ino, device: stat.dev, revision: row?.value ?? 'empty' };
  } finally {
    db.close();
  }
}

const sameIdentity = (a: Identity, b: Identity) => a.inode === b.inode && a.device === b.device && a.revision === b.revision;

/**
 * Looks at the path every `checkMs` and opens a new generation when the file or its revision
 * changed; a path that cannot be opened is looked at again after growing pauses.
 */
export class PathWatch {
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private checkAgain = false;
  private readonly checkMs: number;
  private readonly maxBackoffMs: number;

  constructor(
    private readonly path: string,
    private readonly open: (path: string) => Promise<RecordStore>,
    private readonly generations: Generations,
    private readonly log: (line: string) => void,
    private readonly options: WatchOptions,
  ) {
    this.checkMs = options.checkMs ?? 1_000;
    this.maxBackoffMs = options.maxBackoffMs ?? 60_000;
  }

  schedule(delay: number): void {
    if (this.generations.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.checkOnce(), delay);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
  }

  /** One check at a time; asked for during one, another follows at once. */
  private async checkOnce(): Promise<void> {
    if (this.checking) {
      this.checkAgain = true;
      return;
    }
    this.checking = true;
    try {
      await this.check();
    } finally {
      this.checking = false;
      if (this.checkAgain && !this.generations.closed) {
        this.checkAgain = false;
        this.schedule(0);
      }
    }
  }

  private async check(): Promise<void> {
    const { generations } = this;
    let identity: Identity;
    let store: RecordStore;
    try {
      identity = identityOf(this.path, generations.current.identity, this.log);
      if (sameIdentity(identity, generations.current.identity)) {
        this.opened();
        generations.settleLog();
        this.schedule(this.checkMs);
        return;
      }
      store = await this.open(this.path);
    } catch (error) {
      this.failed(error as Error);
      return;
    }
    // Closed while the new generation was opening: it is never served.
    if (generations.closed) {
      await store.close().catch(() => undefined);
      return;
    }
    this.opened();
    generations.replace(store, identity);
    this.schedule(this.checkMs);
  }

  private opened(): void {
    if (this.failures > 0) this.log(`${this.path} can be opened again`);
    this.failures = 0;
  }

  private failed(error: Error): void {
    this.failures++;
    const delay = Math.min(this.maxBackoffMs, this.checkMs * 2 ** this.failures);
    // Said once per outage, not at every retry.
    if (this.failures === 1)
      this.log(`cannot open ${this.path} (${error.message}); still serving the data opened before, retrying with growing pauses`);
    this.options.onFailure?.(this.failures);
    this.schedule(delay);
  }
}
