import { useEffect, useMemo, useRef, useState } from 'react';
import { isAbortError } from '../../client/errors';
import { deployments } from '../../deployments/registry';
import { useAppConfig } from '../config/config-context';
import type { Run } from './check-summary';
import { readReferences } from './reference-reader';
import { UnreadableInputError } from './reference-input';
import { lookUpReferences, type Catalog, type ReferenceResult } from './reference-lookup';
import { readStoredCheck, writeStoredCheck } from './references-store';

/**
 * A reference check's run: reading the list, looking every reference up, stopping, clearing,
 * and keeping the last check in this browser.
 */

export interface ReferenceCheck {
  readonly results: readonly (ReferenceResult | undefined)[];
  readonly leftOut: number;
  readonly run: Run;
  readonly running: boolean;
  readonly message: string | undefined;
  readonly setMessage: (message: string | undefined) => void;
  /** False when the results are too large to keep after a reload. */
  readonly kept: boolean;
  /** The list kept from the last check (a pasted one; an opened file is the user's). */
  readonly storedInput: string;
  /** Checks a list; `input` is what is kept with the results (empty for a file). */
  readonly check: (text: string, input: string) => Promise<void>;
  readonly stop: () => void;
  readonly clear: () => void;
}

export function useReferenceCheck(): ReferenceCheck {
  const config = useAppConfig();
  const stored = useMemo(() => readStoredCheck(), []);
  const [results, setResults] = useState<readonly (ReferenceResult | undefined)[]>(stored?.results ?? []);
  const [leftOut, setLeftOut] = useState(stored?.leftOut ?? 0);
  const [run, setRun] = useState<Run>(stored?.results.length ? { state: 'done' } : { state: 'idle' });
  const [message, setMessage] = useState<string>();
  const [kept, setKept] = useState(true);
  const controller = useRef<AbortController>(undefined);

  // Leaving the page stops a run.
  useEffect(() => () => controller.current?.abort(), []);

  const catalogs: Catalog[] = useMemo(
    () => deployments.map((deployment) => ({ deployment, baseUrl: config.baseUrls[deployment.key], auth: config.auth[deployment.key] })),
    [config],
  );

  async function check(text: string, input: string) {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setMessage(undefined);
    setRun({ state: 'reading' });
    const found: (ReferenceResult | undefined)[] = [];
    const keep = (left: number) =>
      setKept(writeStoredCheck({ input, leftOut: left, results: found.filter((result) => result !== undefined) }));
    try {
      const parsed = await readReferences(text, current.signal);
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
      keep(parsed.leftOut);
    } catch (error) {
      if (isAbortError(error) || current.signal.aborted) {
        setRun({ state: 'stopped' });
        keep(0);
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
    setResults([]);
    setLeftOut(0);
    setRun({ state: 'idle' });
    setMessage(undefined);
    setKept(writeStoredCheck(undefined));
  }

  return {
    results,
    leftOut,
    run,
    running: run.state === 'reading' || run.state === 'checking',
    message,
    setMessage,
    kept,
    storedInput: stored?.input ?? '',
    check,
    stop: () => controller.current?.abort(),
    clear,
  };
}
