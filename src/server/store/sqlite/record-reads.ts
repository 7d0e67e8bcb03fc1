import { deploymentByKey, type ApiRecord } from '../../../deployments/registry';
import type { DeploymentKey } from '../../../deployments/schema';
import type { MarkedDocs } from '../../render/rendered-body';
import type { FoundRecord } from '../types';
import type { ReadConnection } from './read-connection';
import { tablesOf } from './schema';

/** Records read by id or repo_id, as their stored JSON text or parsed. */
export class RecordReads {
  constructor(private readonly connection: ReadConnection) {}

  private records(key: DeploymentKey) {
    return tablesOf(deploymentByKey(key)!).records;
  }

  /** Records by id as their stored JSON text, in the order given (missing ids are skipped), and which are generated. */
  fetch(key: DeploymentKey, ids: ArrayLike<number>): MarkedDocs {
    // Text, not parsed records: a JSON response is written from it as it is (render/page-body.ts),
    // and a string crosses to the main thread far cheaper than an object graph.
    const statement = this.connection.prepare(`SELECT repo_id, doc, generated FROM ${this.records(key)} WHERE id = ?`);
    const docs: string[] = [];
    const generated: string[] = [];
    for (let i = 0; i < ids.length; i++) {
      const row = statement.get(ids[i]) as { repo_id: string; doc: string; generated: number } | undefined;
      if (!row) continue;
      docs.push(row.doc);
      if (row.generated) generated.push(row.repo_id);
    }
    return { docs, generated };
  }

  get(key: DeploymentKey, repoId: string): FoundRecord | undefined {
    const row = this.connection.prepare(`SELECT doc, generated FROM ${this.records(key)} WHERE repo_id = ?`).get(repoId) as
      { doc: string; generated: number } | undefined;
    return row && { record: JSON.parse(row.doc) as ApiRecord, generated: row.generated !== 0 };
  }

  fulltext(key: DeploymentKey, repoId: string): string | undefined {
    const t = tablesOf(deploymentByKey(key)!);
    const text = this.connection
      .prepare(`SELECT x.fulltext FROM ${t.records} r JOIN ${t.text} x ON x.id = r.id WHERE r.repo_id = ?`)
      .pluck()
      .get(repoId) as string | undefined;
    return text || undefined;
  }
}
