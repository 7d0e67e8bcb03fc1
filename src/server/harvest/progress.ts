/**
 * What a harvest tells the operator while it runs: on a terminal one line rewritten in
 * place; in a log (not a terminal) a plain line at most every few seconds, so a cron job's
 * log stays readable.
 */

export interface ProgressSink {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

export interface ProgressCounts {
  /** Records received so far. */
  readonly received: number;
  /** The source's `X-Total-Count`, when it sends one. */
  readonly total?: number;
  /** Records of a batch being written now, which can take a while for large records. */
  readonly writing?: number;
}

export interface Progress {
  /** `now` logs the line even if one was logged a moment ago (a write that will take a while). */
  update(counts: ProgressCounts, now?: boolean): void;
  /** A message of its own (a retry, a fallback), not overwritten by the next update. */
  note(message: string): void;
  /** Ends the in-place line, if any. */
  done(): void;
}

const number = (value: number) => value.toLocaleString('en-US');

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'unknown';
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** The progress line itself: "1,000 of 3,000 records (33%), 2,400/s, about 1 s left". */
export function progressLine(label: string, counts: ProgressCounts, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? (counts.received * 1000) / elapsedMs : 0;
  const parts = [`${label}: ${number(counts.received)}`];
  if (counts.total !== undefined) {
    const share = counts.total > 0 ? Math.min(100, Math.floor((counts.received * 100) / counts.total)) : 100;
    parts[0] += ` of ${number(counts.total)} records (${share}%)`;
  } else {
    parts[0] += ' records';
  }
  parts.push(`${number(Math.round(rate))}/s`);
  if (counts.total !== undefined && rate > 0 && counts.received < counts.total) {
    parts.push(`about ${duration((counts.total - counts.received) / rate)} left`);
  }
  if (counts.writing !== undefined) parts.push(`writing ${number(counts.writing)} ${counts.writing === 1 ? 'record' : 'records'}`);
  return parts.join(', ');
}

export function createProgress(sink: ProgressSink, label: string, options: { logEveryMs?: number; now?: () => number } = {}): Progress {
  const now = options.now ?? Date.now;
  const started = now();
  const logEveryMs = options.logEveryMs ?? 5000;
  let lastLogged = -Infinity;
  let lineOpen = false;
  const endLine = () => {
    if (lineOpen) sink.write('\n');
    lineOpen = false;
  };
  return {
    update(counts, force = false) {
      const line = progressLine(label, counts, now() - started);
      if (sink.isTTY) {
        // \r and erase-to-end-of-line: a shorter line leaves no tail of the previous one.
        sink.write(`\r${line}\x1b[K`);
        lineOpen = true;
      } else if (force || now() - lastLogged >= logEveryMs) {
        sink.write(`${line}\n`);
        lastLogged = now();
      }
    },
    note(message) {
      endLine();
      sink.write(`${message}\n`);
    },
    done: endLine,
  };
}
