import { useCallback, useEffect, useRef, useState } from 'react';
import type { DownloadOutcome, DownloadProgress } from './download-protocol';
import { runDownload, type RunRequest } from './download-runner';
import { exportFormat } from './export-formats';
import { openFileSink, type FileSink } from './file-sink';

export type DownloadState =
  | { readonly phase: 'idle' }
  | {
      readonly phase: 'running';
      readonly fileName: string;
      readonly progress: DownloadProgress;
      readonly startedAt: number;
      readonly updatedAt: number;
      readonly retry?: { readonly page: number; readonly attempt: number; readonly reason: string };
    }
  | {
      readonly phase: 'finished';
      readonly fileName: string;
      readonly outcome: DownloadOutcome;
      readonly savedTo: FileSink['kind'];
      /** An incomplete download gathered in memory, kept so the user can still save it. */
      readonly partial?: Blob;
    };

/** One whole-result-set download at a time: start, progress, cancel, outcome. */
export function useResultSetDownload() {
  const [state, setState] = useState<DownloadState>({ phase: 'idle' });
  const controller = useRef<AbortController | undefined>(undefined);
  // Set from the click until the download ends: a second click must not open a second picker.
  const busy = useRef(false);

  // Leaving the page cancels: a download nobody watches would write a file nobody expects.
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async (request: RunRequest, fileName: string, options: { usePicker?: boolean } = {}) => {
    if (busy.current) return;
    busy.current = true;
    try {
      await download(request, fileName, options);
    } finally {
      busy.current = false;
      controller.current = undefined;
    }
  }, []);

  async function download(request: RunRequest, fileName: string, options: { usePicker?: boolean }) {
    // First thing after the click: the file picker needs the user's gesture.
    const sink = await openFileSink(fileName, exportFormat(request.format), options);
    if (!sink) return;
    const abort = new AbortController();
    controller.current = abort;
    const startedAt = performance.now();
    setState({
      phase: 'running',
      fileName,
      startedAt,
      updatedAt: startedAt,
      progress: { written: 0, expected: undefined, total: undefined },
    });
    let outcome: DownloadOutcome;
    try {
      outcome = await runDownload(
        request,
        sink,
        {
          onProgress: (progress) =>
            setState((current) =>
              current.phase === 'running' ? { ...current, progress, updatedAt: performance.now(), retry: undefined } : current,
            ),
          onRetry: ({ page, attempt, reason }) =>
            setState((current) => (current.phase === 'running' ? { ...current, retry: { page, attempt, reason } } : current)),
        },
        abort.signal,
      );
    } catch (error) {
      // Only a failure to load the download code itself lands here; say so rather than hang.
      outcome = { status: 'incomplete', written: 0, reason: error instanceof Error ? error.message : String(error) };
    }
    let partial: Blob | undefined;
    try {
      if (outcome.status === 'cancelled') await sink.abort();
      else if (outcome.status === 'complete' || sink.kind === 'file') await sink.close();
      else partial = sink.partial?.();
    } catch (error) {
      if (outcome.status !== 'cancelled') {
        const reason = `The file could not be saved: ${error instanceof Error ? error.message : String(error)}`;
        outcome = { status: 'incomplete', written: outcome.written, total: outcome.total, reason };
      }
    }
    setState({ phase: 'finished', fileName, outcome, savedTo: sink.kind, partial });
  }

  const cancel = useCallback(() => controller.current?.abort(), []);

  return { state, start, cancel };
}
