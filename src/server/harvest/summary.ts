import { formatDay } from '../../formats/dates';
import type { HarvestReport } from './harvest';

/**
 * The closing account of a harvest: how many records came, how many the source said
 * there were, and why the two differ when they do.
 */

const number = (value: number) => value.toLocaleString('en-US');
const plural = (count: number, one: string, many: string) => `${number(count)} ${count === 1 ? one : many}`;

export function summarize(report: HarvestReport, key: string, baseUrl: string): string[] {
  const seconds = report.elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(report.received / seconds) : report.received;
  const from = report.from ? formatDay(report.from, 'YYYY-MM-DD') : undefined;
  const scope = from ? `entered on or after ${from}${report.resumed ? ' (where the last run ended)' : ''}` : 'in all';
  const lines = [
    `Harvested ${plural(report.distinct, `${key} record`, `${key} records`)} from ${baseUrl} in ${seconds.toFixed(1)} s ` +
      `(${plural(report.requests, 'request', 'requests')}, ${number(rate)} records/s): ${number(report.added)} new, ${number(report.replaced)} replaced, ${number(report.unchanged)} unchanged.`,
  ];
  const reported = report.reportedLast;
  if (reported === undefined) {
    lines.push(
      "The source sends no total (no X-Total-Count, one that is no count of records, or only each page's own count), so there is nothing to compare with.",
    );
  } else {
    lines.push(`The source reports ${plural(reported, 'record', 'records')} ${scope}.`);
  }
  const duplicates = report.received - report.distinct;
  if (duplicates > 0) {
    lines.push(`${plural(duplicates, 'record', 'records')} came twice (the source's pages shifted while being read); each is stored once.`);
  }
  if (report.reportedFirst !== undefined && reported !== undefined && report.reportedFirst !== reported) {
    lines.push(
      `The source's count went from ${number(report.reportedFirst)} to ${number(reported)} during the harvest: records were added, changed or removed meanwhile.`,
    );
  }
  if (!report.inOrder) {
    lines.push(
      `The source did not list the records in entry-date order as asked, so the resume point is ${report.complete ? 'saved only now, at the end of a complete run' : 'not moved: the next run starts where this one did'}.`,
    );
  }
  if (report.stopped) {
    lines.push('Stopped before the last page; every batch written is kept. Run the same command again to resume.');
  } else if (reported !== undefined && report.distinct < reported) {
    lines.push(
      `${plural(reported - report.distinct, 'reported record was', 'reported records were')} not received: a record changed during the harvest moves behind the pages already read. The next run fetches it.`,
    );
  } else if (reported !== undefined && report.distinct > reported) {
    lines.push(`${plural(report.distinct - reported, 'record', 'records')} more than reported: added while the harvest ran.`);
  } else if (reported !== undefined) {
    lines.push('Every reported record was received.');
  }
  if (report.resumed && from && report.unchanged > 0) {
    lines.push(
      `The boundary day ${from} is fetched again on purpose (records entered later that day may be new); unchanged records were not written again.`,
    );
  }
  return lines;
}
