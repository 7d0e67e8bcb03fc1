import type { BenchConfig } from './config';
import { singleClient } from './http-client';
import { basePath } from './queries';
import { summarize, type Summary } from './stats';
import { benchmarkTerms } from '../src/server/corpus/vocabulary';
import { defaultStartId } from '../src/server/corpus/generate';

/**
 * Does a slow query hold up other requests? One client keeps sending heavy searches
 * that no cache can answer (a word in nearly every record, each time with a different
 * date bound), while another times single-record requests. With queries off the event
 * loop the record requests stay fast; if they wait behind the heavy ones, they are not.
 */

export interface IsolationResult {
  readonly heavy: Summary & { readonly path: string };
  readonly recordsDuring: Summary;
  readonly recordsAlone: Summary;
}

function heavyPath(i: number): string {
  const year = 1950 + (i % 40);
  const month = String(1 + (i % 12)).padStart(2, '0');
  return `${basePath}/records?${new URLSearchParams({ q: benchmarkTerms.nearlyAll, publication_date_start: `${month}/01/${year}` })}`;
}

export async function measureIsolation(origin: string, config: BenchConfig, seconds = 10): Promise<IsolationResult> {
  const records = singleClient();
  const heavy = singleClient();
  const recordPath = (i: number) => `${origin}${basePath}/records/${defaultStartId + ((i * 104_729) % config.records)}`;
  try {
    const alone: number[] = [];
    for (let i = 0; i < 200; i++) alone.push((await records.get(recordPath(i))).ms);

    let running = true;
    const heavyTimes: number[] = [];
    const heavyLoop = (async () => {
      for (let i = 0; running; i++) heavyTimes.push((await heavy.get(origin + heavyPath(i), config.timeoutSeconds * 6000)).ms);
    })();
    // Give the first heavy query a head start so record requests arrive while it runs.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const during: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    for (let i = 0; performance.now() < deadline; i++) {
      during.push((await records.get(recordPath(1000 + i))).ms);
      // Pace the record client, as a user would: a request every 20 ms.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    running = false;
    await heavyLoop;
    return { heavy: { path: heavyPath(0), ...summarize(heavyTimes) }, recordsDuring: summarize(during), recordsAlone: summarize(alone) };
  } finally {
    records.close();
    heavy.close();
  }
}
