import Database from 'better-sqlite3';
import { deploymentByKey } from '../../../deployments/registry';
import { generateRecords } from '../../corpus/generate';
import { openStoreWriter } from './sqlite-writer';

/**
 * A writer that stops for good between a commit and its checkpoint, for tests to kill with
 * SIGKILL: `node --import tsx killed-writer.test-support.ts DB COUNT START_ID`. A reader of its own
 * holds an older snapshot, as a served search would, so the committed frames stay in the
 * log; it says `committed` once they are there, then waits to be killed.
 */
const [path, count, startId] = process.argv.slice(2) as [string, string, string];
const writer = openStoreWriter(path);
const reader = new Database(path, { readonly: true });
reader.exec('BEGIN');
reader.prepare('SELECT count(*) FROM meta').get();
writer.put('LIT', generateRecords(deploymentByKey('LIT')!, Number(count), { seed: 3, startId: Number(startId) }));
process.stdout.write('committed\n');
setInterval(() => undefined, 60_000);
