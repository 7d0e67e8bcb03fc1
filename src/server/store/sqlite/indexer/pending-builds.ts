import type Database from 'better-sqlite3';
import type { Deployment } from '../../../../deployments/schema';
import { textColumns } from '../../../../formats/index-text';
import type { StoredRecord } from '../../types';
import { GatherThread } from './gather-thread';
import { buildGatherer, buildPostings } from './postings';
import type { TextInstances } from './text-instances';

/** A full build's text gathered as its records are written: on the writer's thread, or on one of its own (gather-thread.ts). */
export interface RecordGatherer {
  /** Record `id`, whose row keeps `json` as its record. */
  add(id: number, stored: StoredRecord, json: string): void;
  finish(): TextInstances;
  drop(): void;
}

/** A gatherer of a full build's text: on a thread of its own running `script` (gather-worker.ts) where given. */
export function startGathering(db: Database.Database, deployment: Deployment, script: URL | undefined): RecordGatherer {
  if (script) return new GatherThread(script, deployment);
  const gatherer = buildGatherer(db, deployment);
  return {
    add: (id, stored) => gatherer.add(id, textColumns(deployment, stored)),
    finish: () => gatherer.finish(),
    drop: () => gatherer.drop(),
  };
}

/**
 * The deployments a bulk load wrote since their postings were built, whose postings are built
 * once on close: from the text gathered as their records were written where one write put
 * them all into an empty deployment, else from the stored rows.
 */
export class PendingBuilds {
  private readonly pending = new Map<Deployment, RecordGatherer | undefined>();

  constructor(private readonly db: Database.Database) {}

  /** A write to `deployment` begins: text gathered before would no longer cover all its records. */
  writing(deployment: Deployment): void {
    const gathered = this.pending.get(deployment);
    if (!gathered) return;
    gathered.drop();
    this.pending.set(deployment, undefined);
  }

  /** A write to `deployment` committed: its postings are built on close, from `gathered` if given. */
  written(deployment: Deployment, gathered: RecordGatherer | undefined): void {
    this.pending.set(deployment, gathered);
  }

  /** Builds each deployment's postings, each in a transaction of its own. */
  buildAll(): void {
    const build = this.db.transaction((deployment: Deployment, gathered: RecordGatherer | undefined) =>
      buildPostings(this.db, deployment, { gathered }),
    );
    for (const [deployment, gathered] of this.pending) {
      this.pending.delete(deployment);
      build(deployment, gathered);
    }
  }
}

/**
 * Writes each record, gathering its text: a repo_id given twice ends the gathering, the text
 * of the first being no longer stored. A failed write ends it too, whose thread would
 * otherwise go on holding what it gathered.
 */
export function writeGathering(
  start: RecordGatherer | undefined,
  records: Iterable<StoredRecord>,
  write: (stored: StoredRecord) => { id: number; replaced: boolean; json: string },
): { written: number; gather: RecordGatherer | undefined } {
  let gather = start;
  let written = 0;
  try {
    for (const stored of records) {
      const { id, replaced, json } = write(stored);
      written++;
      if (!gather) continue;
      if (replaced) {
        gather.drop();
        gather = undefined;
      } else gather.add(id, stored, json);
    }
  } catch (error) {
    try {
      gather?.drop();
    } catch {
      // The write's own error is the one to tell.
    }
    throw error;
  }
  return { written, gather };
}
