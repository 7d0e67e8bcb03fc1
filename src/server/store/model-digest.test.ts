import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey, deployments } from '../../deployments/registry';
import { openEngine } from './engine';
import { modelChanges, modelParts } from './model-digest';
import { openStoreWriter } from './sqlite/sqlite';
import { upgradeInPlace } from './sqlite/sqlite-writer';

/**
 * A store built under another deployment table is refused with a message naming what
 * changed, deployment by deployment, and what of the store that makes stale.
 */

const dir = mkdtempSync(join(tmpdir(), 'model-digest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lit = deploymentByKey('LIT')!;
/** The table as it was before LIT had an author facet. */
const withoutAuthors = deployments.map((deployment) =>
  deployment === lit ? { ...lit, facets: lit.facets.filter((facet) => facet.name !== 'author') } : deployment,
);

describe('modelChanges', () => {
  it('names each changed part of each deployment, and nothing when the table is the same', () => {
    expect(modelChanges(JSON.stringify(modelParts(withoutAuthors)))).toEqual(['LIT facets (its facet values)']);
    expect(modelChanges(JSON.stringify(modelParts()))).toEqual([]);
    expect(modelChanges(undefined)).toEqual([]);
    expect(modelChanges('not json')).toEqual([]);
  });
});

describe('a store built under another table', () => {
  it('is refused by the server and by import, naming the facets that changed', () => {
    const path = join(dir, 'older.db');
    const writer = openStoreWriter(path);
    writer.put('LIT', [{ record: { repo_id: '1', title: 'Plasma' } }]);
    writer.close();
    // What a build of the older table would have written.
    const db = new Database(path);
    db.prepare(`UPDATE meta SET value = ? WHERE key = 'schema'`).run('older');
    db.prepare(`UPDATE meta SET value = ? WHERE key = 'model'`).run(JSON.stringify(modelParts(withoutAuthors)));
    db.close();
    expect(() => openEngine(path)).toThrow(/changed: LIT facets \(its facet values\)\): rebuild it/);
    expect(() => openStoreWriter(path)).toThrow(/changed in the deployment table: LIT facets \(its facet values\)/);
  });
});

describe('a store in the previous layout', () => {
  it('is upgraded in place (by `npm start` or the next write), keeping its records, and until then the server says so', () => {
    const path = join(dir, 'layout-8.db');
    const writer = openStoreWriter(path);
    writer.put('LIT', [{ record: { repo_id: '1', title: 'Plasma' } }]);
    writer.close();
    // What layout 8 wrote: the same tables but the tails.
    const db = new Database(path);
    const [, digest] = (db.prepare(`SELECT value FROM meta WHERE key = 'schema'`).pluck().get() as string).split(/\.(.*)/);
    db.prepare(`UPDATE meta SET value = ? WHERE key = 'schema'`).run(`8.${digest}`);
    for (const deployment of deployments)
      for (const table of ['postings', 'positions', 'pairs']) db.exec(`DROP TABLE ${deployment.key.toLowerCase()}_${table}_tail`);
    db.close();
    expect(() => openEngine(path)).toThrow(/earlier store layout .*'records import', 'generate' or 'harvest' into it upgrades it in place/);
    expect(upgradeInPlace(path)).toBe(true);
    expect(upgradeInPlace(path)).toBe(false);
    const engine = openEngine(path);
    try {
      expect(engine.get('LIT', '1')?.title).toBe('Plasma');
    } finally {
      engine.close();
    }
  });
});
