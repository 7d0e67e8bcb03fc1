import type { DownloadOutcome } from './download-protocol';

/** What the download progress and its outcome say, in words people read. */

const numbers = new Intl.NumberFormat('en');
const count = (value: number) => numbers.format(value);
const records = (value: number) => `${count(value)} ${value === 1 ? 'record' : 'records'}`;

/** "1,000 of 5,000 records", or "1,000 records" while the total is unknown. */
export function progressText(written: number, expected: number | undefined): string {
  return expected === undefined ? records(written) : `${count(written)} of ${records(expected)}`;
}

/** Records per second since the start; undefined until there is something to measure. */
export function recordsPerSecond(written: number, elapsedMs: number): number | undefined {
  return written > 0 && elapsedMs >= 250 ? (written * 1000) / elapsedMs : undefined;
}

export function rateText(rate: number | undefined): string | undefined {
  return rate === undefined ? undefined : `${count(Math.round(rate))} records/s`;
}

export function durationText(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.ceil(seconds))} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** "about 2 min left", from the rate so far; undefined while unknown. */
export function timeLeftText(written: number, expected: number | undefined, rate: number | undefined): string | undefined {
  if (expected === undefined || rate === undefined || rate <= 0) return undefined;
  const remaining = Math.max(0, expected - written);
  return remaining === 0 ? 'finishing' : `about ${durationText(remaining / rate)} left`;
}

/** What the page says when a download ends; `tone` decides between a status and an alert. */
export function outcomeText(
  outcome: DownloadOutcome,
  where: string,
  cap = Infinity,
): { tone: 'success' | 'problem' | 'neutral'; text: string } {
  // Measured against what the download set out to get: the whole set, or the cap.
  const expected = outcome.total === undefined ? undefined : Math.min(outcome.total, cap);
  switch (outcome.status) {
    case 'complete':
      return {
        tone: 'success',
        text: outcome.capped
          ? `Download complete: the first ${records(outcome.written)} of ${count(outcome.total ?? outcome.written)} (the limit per download) ${where}.`
          : `Download complete: ${records(outcome.written)} ${where}.`,
      };
    case 'incomplete':
      return {
        tone: 'problem',
        text: `Download incomplete: ${progressText(outcome.written, expected)}. ${outcome.reason}`,
      };
    case 'cancelled':
      return { tone: 'neutral', text: `Download cancelled after ${progressText(outcome.written, expected)}. Nothing was saved.` };
  }
}
