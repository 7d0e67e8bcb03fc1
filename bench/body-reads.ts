/**
 * What reading record bodies costs a page: the engine's fetch of pages of 100 and of 1,000
 * records by id (what a search's page and a bulk page read), in this process and thread.
 * The pages are drawn at random from the store's LIT records with a fixed seed, so two
 * stores built from the same records (one per layout or codec) are read page for page the
 * same; a page's time is its least over PASSES passes, so a busy machine's pauses fall out.
 *   npx tsx bench/body-reads.ts DATABASE [PAGES] [PASSES]
 */
import Database from 'better-sqlite3';
import { seededRandom } from '../src/server/corpus/random';
import { openEngine } from '../src/server/store/sqlite/query-engine';
import { asServed } from './served-engine';
import { summarize } from './stats';

const [path, pagesArg, passesArg] = process.argv.slice(2);
if (!path) throw new Error('usage: npx tsx bench/body-reads.ts DATABASE [PAGES] [PASSES]');
const pages = Math.max(1, Number(pagesArg ?? 50));
const passes = Math.max(1, Number(passesArg ?? 5));

const db = new Database(path, { readonly: true, fileMustExist: true });
const ids = db.prepare('SELECT id FROM lit_records ORDER BY id').pluck().all() as number[];
db.close();

// The same seeded draws on every run and every store.
const next = seededRandom(41);
const draw = (size: number) => Float64Array.from({ length: size }, () => ids[Math.floor(next() * ids.length)]!);

const engine = openEngine(path, asServed);
try {
  console.log(`${ids.length.toLocaleString('en')} LIT records; ${pages} pages of each size, least of ${passes} passes`);
  console.log('page    p50 ms   p95 ms   mean ms  KB of JSON a page');
  for (const size of [100, 1000]) {
    const drawn = Array.from({ length: pages }, () => draw(size));
    const least = drawn.map(() => Infinity);
    let bytes = 0;
    // A first pass unmeasured: the page cache and the engine's statements are warm for every measured one.
    for (const page of drawn) engine.fetch('LIT', page);
    for (let pass = 0; pass < passes; pass++) {
      drawn.forEach((page, i) => {
        const started = performance.now();
        const { docs } = engine.fetch('LIT', page);
        least[i] = Math.min(least[i]!, performance.now() - started);
        if (pass === 0) for (const doc of docs) bytes += doc.length;
      });
    }
    const { p50, p95, mean } = summarize(least);
    console.log(
      `${String(size).padStart(5)}  ${[p50, p95, mean].map((ms) => ms.toFixed(2).padStart(8)).join(' ')}  ${(bytes / pages / 1024).toFixed(0).padStart(8)}`,
    );
  }
} finally {
  engine.close();
}
