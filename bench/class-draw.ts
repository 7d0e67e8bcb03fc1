import { basePath } from './queries';
import { learnVocabulary, queryLog, trafficClasses, type TrafficClass } from './query-log';

/**
 * The search queries the per-class profiles time: for each search class, up to PER_CLASS
 * distinct list paths drawn as the real-traffic run draws them (bench/query-log.ts, the
 * corpus's seed). The engine's profile and the tantivy peer both take them from here, so
 * the two sides answer the same queries.
 */
export function drawClassQueries(
  records: number,
  seed: number,
  perClass: number,
): { readonly trafficClass: TrafficClass; readonly paths: readonly string[] }[] {
  const classes = trafficClasses(learnVocabulary(records, seed)).filter((c) => c.search);
  const log = queryLog(seed);
  return classes.map((trafficClass) => {
    const paths: string[] = [];
    for (let i = 0; i < perClass; i++) {
      const next = log.next(trafficClass);
      if (next === undefined) break;
      paths.push(next);
    }
    return { trafficClass, paths: paths.filter((p) => p.startsWith(`${basePath}/records?`)) };
  });
}
