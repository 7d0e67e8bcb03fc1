import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey, deployments } from '../../deployments/registry';
import { withDescriptionSearch } from '../engine/postings/description-search.test-support';
import { openEngine } from './sqlite/query-engine';
import { modelChanges, modelParts } from './model-digest';
import { openStoreWriter } from './sqlite/sqlite';

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
    // Every deployment's tokens keep lists in the same columns of one store.
    expect(modelChanges(JSON.stringify(modelParts(withDescriptionSearch)))).toEqual(
      deployments.map((deployment) => `${deployment.key} token lists (its postings by column)`),
    );
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

describe('a store in an earlier layout', () => {
  // Layout 10's postings bounded a block by its largest count and shortest record; layout 16
  // kept the text searched beside the records, and their bodies as JSON text; layout 17 deflated them;
  // layout 18 kept pair lists in every column; layout 19 keyed them by text; layout 20 keyed the tokens' lists by text;
  // layout 21 kept the tokens' lists in the description and biblio columns; layout 22 a list's last block as LEB128;
  // layout 23 packed every count of a block of postings at the width of its largest.
  it.each([10, 16, 17, 18, 19, 20, 21, 22, 23])(
    'of layout %i is refused with the rebuild message, by the server and by writers alike',
    (layout) => {
      const path = join(dir, `layout-${layout}.db`);
      const writer = openStoreWriter(path);
      writer.put('LIT', [{ record: { repo_id: '1', title: 'Plasma' } }]);
      writer.close();
      const db = new Database(path);
      const [, digest] = (db.prepare(`SELECT value FROM meta WHERE key = 'schema'`).pluck().get() as string).split(/\.(.*)/);
      db.prepare(`UPDATE meta SET value = ? WHERE key = 'schema'`).run(`${layout}.${digest}`);
      db.close();
      expect(() => openEngine(path)).toThrow(
        new RegExp(
          `store schema ${layout}\\..*: rebuild it \\(remove the file, then 'npm start' or 'records import'/'records generate'\\)`,
        ),
      );
      expect(() => openStoreWriter(path)).toThrow(new RegExp(`has store schema ${layout}\\..*Create a new database`));
    },
  );
});
