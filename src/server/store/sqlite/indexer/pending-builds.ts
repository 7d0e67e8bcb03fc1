import type Database from 'better-sqlite3';
import type { Deployment } from '../../../../deployments/schema';
import { textColumns } from '../../../../formats/index-text';
import type { StoredRecord } from '../../types';
import { buildPostings } from './postings';
import type { InstanceGatherer } from './text-instances';

/**
 * The deployments a bulk load wrote since their postings were built, whose postings are built
 * once on close: from the text gathered as their records were written where one write put
 * them all into an empty deployment, else from the stored rows.
 */
export class PendingBuilds {
  private readonly pending = new Map<Deployment, InstanceGatherer | undefined>();

  constructor(private readonly db: Database.Database) {}

  /** A write to `deployment` begins: text gathered before would no longer cover all its records. */
  writing(deployment: Deployment): void {
    const gathered = this.pending.get(deployment);
    if (!gathered) return;
    gathered.drop();
    this.pending.set(deployment, undefined);
  }

  /** A write to `deployment` committed: its postings are built on close, from `gathered` if given. */
  written(deployment: Deployment, gathered: InstanceGatherer | undefined): void {
    this.pending.set(deployment, gathered);
  }

  /** Builds each deployment's postings, each in a transaction of its own. */
  buildAll(): void {
    const build = this.db.transaction((deployment: Deployment, gathered: InstanceGatherer | undefined) =>
      buildPostings(this.db, deployment, { gathered }),
    );
    for (const [deployment, gathered] of this.pending) {
      this.pending.delete(deployment);
      build(deployment, gathered);
    }
  }
}

/** Gathers a written record's text; a repo_id given twice ends the gathering, the text of the first being no longer stored. */
export function gatherText(
  gather: InstanceGatherer | undefined,
  deployment: Deployment,
  stored: StoredRecord,
  { id, replaced }: { id: number; replaced: boolean },
): InstanceGatherer | undefined {
  if (!gather) return undefined;
  if (replaced) {
    gather.drop();
    return undefined;
  }
  gather.add(id, textColumns(deployment, stored));
  return gather;
}
