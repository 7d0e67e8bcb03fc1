import { useId, useState } from 'react';
import type { ApiAuth } from '../../client/auth';
import type { Deployment } from '../../deployments/schema';
import { downloadCap, downloadRetryPolicy } from './download-limits';
import { exportFormat, exportFormats, exportFormatSchema, type ExportFormatId } from './export-formats';
import { incompleteFileName, resultSetFileName } from './file-names';
import { outcomeText, progressText, rateText, recordsPerSecond, timeLeftText } from './progress-text';
import { saveBlob } from '../ui/save-blob';
import { useResultSetDownload, type DownloadState } from './use-result-set-download';
import './export.css';

export interface ResultSetDownloadProps {
  readonly deployment: Deployment;
  /** The API URL of the search on screen (any page); the download starts from page 1. */
  readonly searchUrl: string;
  /** X-Total-Count of that search, when the server sent it. */
  readonly total: number | undefined;
  /** How many works those records are, where the server counted them (X-Total-Works): the file holds every version. */
  readonly works?: number | undefined;
  /** Most records per download; 100,000 unless a page needs less. */
  readonly cap?: number;
  /** Set false to skip the save-file picker (tests, or browsers where it misbehaves). */
  readonly usePicker?: boolean;
  /** A private mirror's token (useApiAuth). */
  readonly auth?: ApiAuth | undefined;
}

const numbers = new Intl.NumberFormat('en');

/** What the user learns before starting: how many records the file will hold, and the limit. */
export function capNotice(total: number | undefined, cap: number, works?: number): string {
  const limit = `A download holds at most ${numbers.format(cap)} records`;
  if (total === undefined) return `${limit}.`;
  if (total > cap) {
    return `This search found ${numbers.format(total)} records. ${limit}, so the file will hold the first ${numbers.format(cap)} in the order shown.`;
  }
  if (works !== undefined && works < total) {
    return `This search found ${recordsText(total, works)}; the file will hold all of them, each version of a work a record of its own. ${limit}.`;
  }
  return `This search found ${numbers.format(total)} ${total === 1 ? 'record' : 'records'}; the file will hold all of them. ${limit}.`;
}

/** "12 records (10 works)": a download counts records, and says how many works they are where that is known. */
function recordsText(count: number, works?: number): string {
  const records = `${numbers.format(count)} ${count === 1 ? 'record' : 'records'}`;
  return works !== undefined && works < count ? `${records} (${numbers.format(works)} ${works === 1 ? 'work' : 'works'})` : records;
}

/**
 * Downloads every record of a search in one file, following the server's pages at its
 * largest page size, with progress, rate, time left and Cancel.
 */
export function ResultSetDownload({
  deployment,
  searchUrl,
  total,
  works,
  cap = downloadCap,
  usePicker = true,
  auth,
}: ResultSetDownloadProps) {
  const headingId = useId();
  const formatId = useId();
  const bomId = useId();
  const progressTextId = useId();
  const [format, setFormat] = useState<ExportFormatId>('csv');
  const [bom, setBom] = useState(true);
  const { state, start, cancel } = useResultSetDownload();
  const running = state.phase === 'running';
  const count = total === undefined ? undefined : Math.min(total, cap);

  function begin() {
    const fileName = resultSetFileName(deployment, format, new Date(), searchUrl);
    void start({ deployment, searchUrl, format, cap, bom: format === 'csv' && bom, auth }, fileName, { usePicker });
  }

  return (
    <section className="result-download" aria-labelledby={headingId}>
      <h3 id={headingId}>Download all results</h3>
      <p className="result-download__cap">{capNotice(total, cap, works)}</p>
      <div className="result-download__controls">
        <div className="field">
          <label htmlFor={formatId}>Format</label>
          <select
            id={formatId}
            value={format}
            disabled={running}
            onChange={(event) => {
              const parsed = exportFormatSchema.safeParse(event.target.value);
              if (parsed.success) setFormat(parsed.data);
            }}
          >
            {exportFormats.map((option) => (
              <option key={option.id} value={option.id}>
                {option.label} (.{option.extension})
              </option>
            ))}
          </select>
        </div>
        {format === 'csv' && (
          <div className="result-download__option">
            <input id={bomId} type="checkbox" checked={bom} disabled={running} onChange={(event) => setBom(event.target.checked)} />
            <label htmlFor={bomId}>Add UTF-8 BOM (for spreadsheets)</label>
          </div>
        )}
        <button type="button" className="button button--primary" disabled={running || count === 0} onClick={begin}>
          {count === undefined
            ? `Download as ${exportFormat(format).label}`
            : `Download ${recordsText(count, count === total ? works : undefined)}`}
        </button>
      </div>
      {state.phase === 'running' && <Progress state={state} fallbackExpected={count} textId={progressTextId} onCancel={cancel} />}
      <Outcome state={state} cap={cap} />
    </section>
  );
}

function Progress({
  state,
  fallbackExpected,
  textId,
  onCancel,
}: {
  state: Extract<DownloadState, { phase: 'running' }>;
  fallbackExpected: number | undefined;
  textId: string;
  onCancel: () => void;
}) {
  const { written } = state.progress;
  const expected = state.progress.expected ?? fallbackExpected;
  const rate = recordsPerSecond(written, state.updatedAt - state.startedAt);
  const details = [rateText(rate), timeLeftText(written, expected, rate)].filter(Boolean).join(' · ');
  return (
    <div className="result-download__progress">
      {expected === undefined ? (
        <progress aria-label="Download progress" aria-describedby={textId} />
      ) : (
        <progress aria-label="Download progress" aria-describedby={textId} max={Math.max(expected, 1)} value={written} />
      )}
      <p id={textId} className="result-download__numbers">
        <span>{progressText(written, expected)}</span>
        {details && <span className="result-download__rate"> · {details}</span>}
      </p>
      {state.retry && (
        <p className="result-download__retry">
          Page {state.retry.page} failed ({state.retry.reason}); trying again (attempt {state.retry.attempt + 1} of{' '}
          {downloadRetryPolicy.attempts}
          )…
        </p>
      )}
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

function Outcome({ state, cap }: { state: DownloadState; cap: number }) {
  const finished = state.phase === 'finished' ? state : undefined;
  const where = finished ? (finished.savedTo === 'file' ? `written to ${finished.fileName}` : `saved as ${finished.fileName}`) : '';
  const message = finished && outcomeText(finished.outcome, where, cap);
  return (
    <>
      {/* Live regions stay in the document so that the outcome is announced. */}
      <p role="status" className="result-download__status">
        {message && message.tone !== 'problem' ? message.text : ''}
      </p>
      <div role="alert" className={message?.tone === 'problem' ? 'error-state result-download__problem' : undefined}>
        {message?.tone === 'problem' && finished && (
          <>
            <p className="error-state__title">{message.text}</p>
            {finished.savedTo === 'file' ? (
              <p>The file {finished.fileName} holds only the records listed above.</p>
            ) : (
              finished.partial && (
                <button type="button" className="button" onClick={() => saveBlob(finished.partial!, incompleteFileName(finished.fileName))}>
                  Save the {numbers.format(finished.outcome.written)} records downloaded
                </button>
              )
            )}
          </>
        )}
      </div>
    </>
  );
}
