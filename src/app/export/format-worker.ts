// First, before any module builds a zod schema: no `new Function` probe under the CSP.
import '../config/zod-jitless';
import { deploymentByKey } from '../../deployments/registry';
import { downloadResultSet } from './download-result-set';
import { toWorkerSchema, type FromWorker } from './download-protocol';

/**
 * The download worker: fetching, validating and formatting up to a hundred thousand records
 * happens here, off the page's thread, so the page stays responsive and can cancel.
 */

/** The worker's global scope, typed here: the webworker lib would clash with the DOM lib. */
const scope = globalThis as unknown as {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
};

const controller = new AbortController();
const encoder = new TextEncoder();
/** The chunk the page is writing: settled by its acknowledgement, or by a cancel. */
let pending: { resolve: () => void; reject: (reason: unknown) => void } | undefined;

function post(message: FromWorker, transfer: Transferable[] = []): void {
  scope.postMessage(message, transfer);
}

scope.addEventListener('message', (event) => {
  const parsed = toWorkerSchema.safeParse(event.data);
  if (!parsed.success) return;
  const message = parsed.data;
  if (message.type === 'written') {
    pending?.resolve();
    pending = undefined;
    return;
  }
  if (message.type === 'cancel') {
    controller.abort();
    pending?.reject(controller.signal.reason);
    pending = undefined;
    return;
  }
  const deployment = deploymentByKey(message.deployment);
  if (!deployment) return;
  void downloadResultSet(
    { deployment, searchUrl: message.searchUrl, format: message.format, cap: message.cap, bom: message.bom, auth: message.auth },
    {
      signal: controller.signal,
      write: (chunk) =>
        new Promise<void>((resolve, reject) => {
          if (controller.signal.aborted) return reject(controller.signal.reason);
          pending = { resolve, reject };
          const bytes = encoder.encode(chunk);
          post({ type: 'chunk', bytes }, [bytes.buffer]);
        }),
      onProgress: (progress) => post({ type: 'progress', ...progress }),
      onRetry: ({ page, attempt, delayMs, error }) =>
        post({ type: 'retry', page, attempt, delayMs, reason: error instanceof Error ? error.message : String(error) }),
    },
  ).then((outcome) => post({ type: 'done', outcome }));
});
