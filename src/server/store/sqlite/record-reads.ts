import { deploymentByKey, type ApiRecord } from '../../../deployments/registry';
import type { DeploymentKey } from '../../../deployments/schema';
import type { MarkedDocs } from '../../render/rendered-body';
import type { FoundRecord } from '../types';
import { storedBodyCodec, type BodyCodec } from './record-bodies';
import type { ReadConnection } from './read-connection';
import { tablesOf } from './schema';

/** Records read by id or repo_id, as their JSON text or parsed. */
export class RecordReads {
  // A deployment's dictionary never changes once it holds records, so its codec is kept once found.
  private readonly codecs = new Map<DeploymentKey, BodyCodec>();

  constructor(private readonly connection: ReadConnection) {}

  private records(key: DeploymentKey) {
    return tablesOf(deploymentByKey(key)!).records;
  }

  private codec(key: DeploymentKey): BodyCodec | undefined {
    let codec = this.codecs.get(key);
    if (!codec) {
      codec = storedBodyCodec(this.connection.db, deploymentByKey(key)!);
      if (codec) this.codecs.set(key, codec);
    }
    return codec;
  }

  /** Records by id as their JSON text, in the order given (missing ids are skipped), and which are generated. */
  fetch(key: DeploymentKey, ids: ArrayLike<number>): MarkedDocs {
    // Text, not parsed records: a JSON response is written from it as it is (render/page-body.ts),
    // and a string crosses to the main thread far cheaper than an object graph.
    const docs: string[] = [];
    const generated: string[] = [];
    const codec = ids.length > 0 ? this.codec(key) : undefined;
    if (!codec) return { docs, generated };
    // One statement for the page, not one per id: a run of a statement costs several times the
    // step to its next row, and a page of 100 ran as many statements as it had records.
    const rows = this.connection
      .prepare(`SELECT id, repo_id, doc, generated FROM ${this.records(key)} WHERE id IN (SELECT value FROM json_each(?))`)
      .all(`[${Array.from(ids).join(',')}]`) as { id: number; repo_id: string; doc: Buffer; generated: number }[];
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (let i = 0; i < ids.length; i++) {
      const row = byId.get(ids[i]!);
      if (!row) continue;
      docs.push(codec.decode(row.doc));
      if (row.generated) generated.push(row.repo_id);
    }
    return { docs, generated };
  }

  get(key: DeploymentKey, repoId: string): FoundRecord | undefined {
    const row = this.connection.prepare(`SELECT doc, generated FROM ${this.records(key)} WHERE repo_id = ?`).get(repoId) as
      { doc: Buffer; generated: number } | undefined;
    return row && { record: JSON.parse(this.codec(key)!.decode(row.doc)) as ApiRecord, generated: row.generated !== 0 };
  }

  fulltext(key: DeploymentKey, repoId: string): string | undefined {
    const text = this.connection
      .prepare(`SELECT fulltext FROM ${this.records(key)} WHERE repo_id = ?`)
      .pluck()
      .get(repoId) as Buffer | null | undefined;
    return (text && this.codec(key)!.decode(text)) || undefined;
  }
}
