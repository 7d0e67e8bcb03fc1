import type { ApiAuth } from '../../client/auth';
import type { Deployment } from '../../deployments/schema';
import { fromWorkerSchema, type DownloadOutcome, type DownloadProgress, type ToWorker } from './download-protocol';
import type { ExportFormatId } from './export-formats';
import type { FileSink } from './file-sink';

/**
 * Runs a result-set download in a worker and writes what it produces to a sink. Cancel
 * terminates the worker, which ends any request in flight: nothing is fetched after it.
 */

export interface RunRequest {
  readonly deployment: Deployment;
  readonly searchUrl: string;
  readonly format: ExportFormatId;
  readonly cap: number;
  readonly bom: boolean;
  readonly auth?: ApiAuth | undefined;
}

export interface RunHandlers {
  readonly onProgress: (progress: DownloadProgress) => void;
  readonly onRetry?: (retry: { page: number; attempt: number; delayMs: number; reason: string }) => void;
}

function startWorker(): Worker | undefined {
  try {
    return new Worker(new URL('./format-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return undefined;
  }
}

/** The same download on the page's own thread, where workers are unavailable. */
async function runInline(request: RunRequest, sink: FileSink, handlers: RunHandlers, signal: AbortSignal): Promise<DownloadOutcome> {
  const { downloadResultSet } = await import('./download-result-set');
  const encoder = new TextEncoder();
  return downloadResultSet(request, {
    signal,
    write: (chunk) => sink.write(encoder.encode(chunk)),
    onProgress: handlers.onProgress,
    onRetry: ({ page, attempt, delayMs, error }) =>
      handlers.onRetry?.({ page, attempt, delayMs, reason: error instanceof Error ? error.message : String(error) }),
  });
}

export function runDownload(request: RunRequest, sink: FileSink, handlers: RunHandlers, signal: AbortSignal): Promise<DownloadOutcome> {
  const worker = startWorker();
  if (!worker) return runInline(request, sink, handlers, signal);
  return new Promise<DownloadOutcome>((resolve) => {
    let last: DownloadProgress = { written: 0, expected: undefined, total: undefined };
    let heard = false;
    let settled = false;
    let writing = Promise.resolve();
    let writeError: unknown;
    const send = (message: ToWorker) => worker.postMessage(message);
    const finish = (outcome: DownloadOutcome | Promise<DownloadOutcome>) => {
      if (settled) return;
      settled = true;
      worker.terminate();
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onAbort = () => finish({ status: 'cancelled', written: last.written, total: last.total });
    signal.addEventListener('abort', onAbort, { once: true });

    worker.addEventListener('error', () => {
      // A worker that never answered did not load (old browser, blocked script): do it here.
      if (!heard) finish(runInline(request, sink, handlers, signal));
      else finish({ status: 'incomplete', written: last.written, total: last.total, reason: 'The download stopped unexpectedly.' });
    });
    worker.addEventListener('message', (event: MessageEvent<unknown>) => {
      heard = true;
      const parsed = fromWorkerSchema.safeParse(event.data);
      if (!parsed.success || settled) return;
      const message = parsed.data;
      switch (message.type) {
        case 'chunk':
          // Writes run one after another; the worker waits for each acknowledgement.
          writing = writing.then(async () => {
            if (writeError !== undefined) return;
            try {
              await sink.write(message.bytes);
              send({ type: 'written' });
            } catch (error) {
              writeError = error;
              send({ type: 'cancel' });
            }
          });
          return;
        case 'progress':
          last = message;
          handlers.onProgress(message);
          return;
        case 'retry':
          handlers.onRetry?.(message);
          return;
        case 'done':
          void writing.then(() => {
            const { outcome } = message;
            if (writeError !== undefined) {
              const reason = `The file could not be written: ${writeError instanceof Error ? writeError.message : String(writeError)}`;
              finish({ status: 'incomplete', written: last.written, total: outcome.total, reason });
            } else {
              finish(outcome);
            }
          });
          return;
      }
    });
    send({
      type: 'start',
      deployment: request.deployment.key,
      searchUrl: request.searchUrl,
      format: request.format,
      cap: request.cap,
      bom: request.bom,
      ...(request.auth ? { auth: request.auth } : {}),
    });
  });
}
