import { memo, useEffect, useId, useMemo, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { deploymentByKey, deployments, displayName, type ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { isAbortError } from '../../client/errors';
import { firstRecordText } from '../../formats/record-text';
import { recordPath } from '../navigation/record-path';
import { useAppConfig } from '../config/config-context';
import { useDocumentTitle, useFocusOnNavigation } from '../navigation/navigation-focus';
import { formatNumber } from '../ui/format';
import { RichText } from '../ui/RichText';
import { saveBlob } from '../ui/save-blob';
import { foundFile, foundFormats, type CatalogRecords, type FoundFormat } from './found-file';
import { foundAt, verdictOf, type Verdict } from './match-score';
import { parseReferenceList } from './parse-references';
import { maxInputBytes, maxReferencesPerRun, UnreadableInputError } from './reference-input';
import { lookUpReferences, type Catalog, type ReferenceResult } from './reference-lookup';
import { readStoredCheck, writeStoredCheck } from './references-store';
import './references.css';

export interface ReferencesPageProps {
  /** What the page offers for a catalog's found records (cite, select), composed by the route. */
  readonly catalogActions?: (deployment: Deployment, records: readonly ApiRecord[]) => ReactNode;
}

type Run =
  | { readonly state: 'idle' }
  | { readonly state: 'reading' }
  | { readonly state: 'checking'; readonly total: number }
  | { readonly state: 'done' }
  | { readonly state: 'stopped' };

const groups: readonly { verdict: Verdict; title: string }[] = [
  { verdict: 'found', title: 'Found' },
  { verdict: 'probable', title: 'Probably (check)' },
  { verdict: 'not-found', title: 'Not found' },
];

const verdictOfResult = (result: ReferenceResult) => verdictOf(result.matches[0]?.confidence);
const plural = (count: number, word: string) => `${formatNumber(count)} ${word}${count === 1 ? '' : 's'}`;

/**
 * "Check my references": a pasted or opened reference list, each reference looked up in every
 * catalog, grouped into found, probably and not found. The list and the results stay in this
 * browser; only the catalogs' own APIs are asked.
 */
export function ReferencesPage({ catalogActions }: ReferencesPageProps) {
  useDocumentTitle('Check references');
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusOnNavigation(heading);
  const config = useAppConfig();
  const stored = useMemo(() => readStoredCheck(), []);
  const [input, setInput] = useState(stored?.input ?? '');
  const [file, setFile] = useState<{ name: string; text: string }>();
  const [results, setResults] = useState<readonly (ReferenceResult | undefined)[]>(stored?.results ?? []);
  const [leftOut, setLeftOut] = useState(stored?.leftOut ?? 0);
  const [run, setRun] = useState<Run>(stored?.results.length ? { state: 'done' } : { state: 'idle' });
  const [message, setMessage] = useState<string>();
  const [kept, setKept] = useState(true);
  const [format, setFormat] = useState<FoundFormat>('bibtex');
  const controller = useRef<AbortController>(undefined);
  const textArea = useRef<HTMLTextAreaElement>(null);
  const inputId = useId();
  const fileId = useId();
  const formatId = useId();
  const hintId = useId();

  // Leaving the page stops a run.
  useEffect(() => () => controller.current?.abort(), []);

  const catalogs: Catalog[] = useMemo(
    () => deployments.map((deployment) => ({ deployment, baseUrl: config.baseUrls[deployment.key], auth: config.auth[deployment.key] })),
    [config],
  );
  const finished = results.filter((result): result is ReferenceResult => result !== undefined);
  // Each result keeps its place in the list as its key, so a result arriving re-renders only itself.
  const positions = new Map(results.flatMap((result, index) => (result ? [[result, index] as const] : [])));
  const running = run.state === 'reading' || run.state === 'checking';

  async function openFile(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    if (chosen.size > maxInputBytes) {
      setMessage(
        `${chosen.name} is ${(chosen.size / 1e6).toFixed(1)} MB; at most ${maxInputBytes / 1e6} MB can be checked. Split the list.`,
      );
      return;
    }
    setMessage(undefined);
    setFile({ name: chosen.name, text: await chosen.text() });
  }

  async function check() {
    const text = file?.text ?? input;
    if (text.trim() === '') {
      setMessage('Paste a reference list or open a file first.');
      textArea.current?.focus();
      return;
    }
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setMessage(undefined);
    setRun({ state: 'reading' });
    const found: (ReferenceResult | undefined)[] = [];
    try {
      const parsed = await parseReferenceList(text, current.signal);
      setLeftOut(parsed.leftOut);
      if (parsed.references.length === 0) {
        setResults([]);
        setRun({ state: 'idle' });
        setMessage('No references were found in this text: paste DOIs, formatted references, BibTeX or RIS.');
        return;
      }
      found.length = parsed.references.length;
      setResults([...found]);
      setRun({ state: 'checking', total: parsed.references.length });
      await lookUpReferences(parsed.references, catalogs, {
        signal: current.signal,
        onResult: (index, result) => {
          found[index] = result;
          setResults([...found]);
        },
      });
      setRun({ state: 'done' });
      // A pasted list is kept with its results; an opened file's results only (the file is the user's).
      setKept(
        writeStoredCheck({ input: file ? '' : input, leftOut: parsed.leftOut, results: found.filter((result) => result !== undefined) }),
      );
    } catch (error) {
      if (isAbortError(error) || current.signal.aborted) {
        setRun({ state: 'stopped' });
        setKept(writeStoredCheck({ input: file ? '' : input, leftOut: 0, results: found.filter((result) => result !== undefined) }));
      } else {
        setRun({ state: 'idle' });
        setMessage(
          error instanceof UnreadableInputError
            ? error.message
            : `The list could not be read: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }

  function clear() {
    controller.current?.abort();
    setInput('');
    setFile(undefined);
    setResults([]);
    setLeftOut(0);
    setRun({ state: 'idle' });
    setMessage(undefined);
    setKept(writeStoredCheck(undefined));
  }

  const byVerdict = new Map<Verdict, ReferenceResult[]>(groups.map(({ verdict }) => [verdict, []]));
  for (const result of finished) byVerdict.get(verdictOfResult(result))!.push(result);
  const foundGroups: CatalogRecords[] = deployments
    .map((deployment) => ({
      deployment,
      records: byVerdict
        .get('found')!
        .flatMap((result) => (result.matches[0]?.catalog === deployment.key ? [result.matches[0].record] : [])),
    }))
    .filter((group) => group.records.length > 0);
  // A catalog that cannot be asked is said once for the run, not beside every reference.
  const unreachable = new Map<string, { count: number; message: string }>();
  for (const result of finished) {
    for (const failure of result.failures) {
      const seen = unreachable.get(failure.catalog);
      unreachable.set(failure.catalog, { count: (seen?.count ?? 0) + 1, message: seen?.message ?? failure.message });
    }
  }
  const counts = groups
    .map(({ verdict, title }) => `${formatNumber(byVerdict.get(verdict)!.length)} ${title.toLowerCase().replace(' (check)', '')}`)
    .join(', ');
  // Announced at each tenth of the run and at its end, not at every reference.
  const total = run.state === 'checking' ? run.total : results.length;
  const step = Math.max(1, Math.ceil(total / 10));
  const announced = finished.length === total ? finished.length : finished.length - (finished.length % step);
  const status =
    run.state === 'reading'
      ? 'Reading the list…'
      : run.state === 'checking'
        ? `Checked ${formatNumber(announced)} of ${plural(total, 'reference')}…`
        : run.state === 'stopped'
          ? `Stopped after ${plural(finished.length, 'reference')}: ${counts}.`
          : run.state === 'done'
            ? `Checked ${plural(finished.length, 'reference')}: ${counts}.`
            : '';

  return (
    <>
      <h1 className="page-title" ref={heading} tabIndex={-1}>
        Check references
      </h1>
      <p className="references-intro">
        Paste a reference list — DOIs, references as formatted in a paper (one per line or paragraph, numbered or not), BibTeX or RIS
        entries, in any mix — and see which works every catalog holds. The list stays in this browser; only the catalogs’ own servers are
        asked.
      </p>
      <form
        className="references-form"
        aria-label="References to check"
        onSubmit={(event) => {
          event.preventDefault();
          void check();
        }}
      >
        <label htmlFor={inputId} className="search-form__label">
          References
        </label>
        <textarea
          id={inputId}
          ref={textArea}
          rows={10}
          value={input}
          spellCheck={false}
          aria-describedby={hintId}
          onChange={(event) => setInput(event.target.value)}
          disabled={running || file !== undefined}
        />
        <p id={hintId} className="references-form__hint">
          Up to {formatNumber(maxReferencesPerRun)} references in one run.
        </p>
        <div className="references-form__file">
          <label htmlFor={fileId}>Or open a file (BibTeX, RIS or text)</label>
          <input
            id={fileId}
            type="file"
            accept=".bib,.bibtex,.ris,.txt,text/plain,application/x-bibtex,application/x-research-info-systems"
            onChange={(event) => void openFile(event)}
            disabled={running}
          />
          {file && (
            <p>
              Checking the file {file.name} ({formatNumber(Math.ceil(file.text.length / 1000))} KB) instead of the text box.{' '}
              <button type="button" className="button button--quiet" onClick={() => setFile(undefined)}>
                Use the text box
              </button>
            </p>
          )}
        </div>
        <div className="references-form__actions">
          <button type="submit" className="button button--primary" disabled={running}>
            Check references
          </button>
          {running && (
            <button type="button" className="button" onClick={() => controller.current?.abort()}>
              Stop
            </button>
          )}
          {!running && (input !== '' || results.length > 0) && (
            <button type="button" className="button button--quiet" onClick={clear}>
              Clear list and results
            </button>
          )}
        </div>
      </form>
      {message && (
        <p role="alert" className="field__error">
          {message}
        </p>
      )}
      <p role="status" className="references-status">
        {status}
      </p>
      {run.state === 'checking' && (
        <progress className="references-progress" max={run.total} value={finished.length} aria-label="References checked" />
      )}
      {leftOut > 0 && (
        <p className="notice">
          Only the first {formatNumber(maxReferencesPerRun)} references are checked in one run; {plural(leftOut, 'more reference')} were
          left out. Check them in another run.
        </p>
      )}
      {[...unreachable].map(([catalog, { count, message: reason }]) => (
        <p key={catalog} className="notice">
          {displayName(deploymentByKey(catalog)!)} could not be asked about {plural(count, 'reference')}: {reason} Those references may be
          in it.
        </p>
      ))}
      {!kept && <p className="references-note">These results are too large to keep after a reload.</p>}
      {foundGroups.length > 0 && !running && (
        <section className="references-actions" aria-label="Found works">
          <div className="references-actions__download">
            <label htmlFor={formatId}>Format</label>
            <select
              id={formatId}
              value={format}
              onChange={(event) => {
                const chosen = foundFormats.find((option) => option.id === event.target.value);
                if (chosen) setFormat(chosen.id);
              }}
            >
              {foundFormats.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.label}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="button"
              onClick={() => {
                const { blob, fileName } = foundFile(foundGroups, format);
                saveBlob(blob, fileName);
              }}
            >
              Download found ({formatNumber(foundGroups.reduce((sum, group) => sum + group.records.length, 0))})
            </button>
          </div>
          {catalogActions &&
            foundGroups.map(({ deployment, records }) => (
              <div key={deployment.key} className="references-actions__catalog">
                <span>
                  {displayName(deployment)}: {plural(records.length, 'work')}
                </span>
                {catalogActions(deployment, records)}
              </div>
            ))}
        </section>
      )}
      {finished.length > 0 &&
        groups.map(({ verdict, title }) => {
          const list = byVerdict.get(verdict)!;
          const headingId = `references-${verdict}`;
          return (
            <section key={verdict} className={`references-group references-group--${verdict}`} aria-labelledby={headingId}>
              <h2 id={headingId}>
                {title} ({formatNumber(list.length)})
              </h2>
              {list.length > 0 && (
                <ol className="references-list">
                  {list.map((result) => (
                    <ReferenceItem key={positions.get(result)} result={result} />
                  ))}
                </ol>
              )}
            </section>
          );
        })}
    </>
  );
}

const kindLabels = { doi: 'DOI', formatted: 'Formatted reference', bibtex: 'BibTeX', ris: 'RIS' } as const;

const ReferenceItem = memo(function ReferenceItem({ result }: { result: ReferenceResult }) {
  const { reference, failures } = result;
  // Beside the best match, other catalogs' records only where they too are found: a weaker one would be noise.
  const matches = result.matches.filter((match, index) => index === 0 || match.confidence >= foundAt);
  const facts = [
    kindLabels[reference.kind],
    reference.doi && reference.kind !== 'doi' ? `DOI ${reference.doi}` : undefined,
    reference.year !== undefined ? String(reference.year) : undefined,
    reference.surnames[0],
  ].filter(Boolean);
  const text = reference.text.length > 400 ? `${reference.text.slice(0, 400)}…` : reference.text;
  return (
    <li className="reference">
      <p className="reference__text">{text}</p>
      <p className="reference__facts">{facts.join(' · ')}</p>
      {matches.length > 0 && (
        <ul className="reference__matches">
          {matches.map((match) => {
            const deployment = deploymentByKey(match.catalog)!;
            const title = firstRecordText(match.record.title);
            return (
              <li key={match.catalog}>
                <span className="reference__catalog">{displayName(deployment)}:</span>{' '}
                <Link to={recordPath(deployment, match.record.repo_id)} aria-label={title ? undefined : `Record ${match.record.repo_id}`}>
                  {title ? <RichText text={title} inline /> : match.record.repo_id}
                </Link>{' '}
                <span className="reference__confidence">
                  {Math.round(match.confidence * 100)}% {match.via === 'doi' ? '(same DOI)' : '(title, authors and year)'}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {reference.problem && <p className="reference__problem">{reference.problem}</p>}
      {matches.length === 0 && !reference.problem && (
        <p className="reference__none">
          {failures.length === 0
            ? 'No catalog holds a matching record.'
            : `No catalog that could be asked holds a matching record; not asked: ${failures.map((failure) => displayName(deploymentByKey(failure.catalog)!)).join(', ')}.`}
        </p>
      )}
    </li>
  );
});
