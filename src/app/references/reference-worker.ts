// First, before any module builds a zod schema: no `new Function` probe under the CSP.
import '../config/zod-jitless';
import { parseReferenceList } from './parse-references';
import { toReaderSchema, type FromReader } from './reader-protocol';
import { UnreadableInputError } from './reference-input';

/**
 * The reference reader's worker: a list of up to 8 MB is read here, off the page's thread, so
 * the page stays responsive and Stop terminates the reading wherever it is.
 */

/** The worker's global scope, typed here: the webworker lib would clash with the DOM lib. */
const scope = globalThis as unknown as {
  postMessage(message: FromReader): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
};

scope.addEventListener('message', (event) => {
  const parsed = toReaderSchema.safeParse(event.data);
  if (!parsed.success) return;
  parseReferenceList(parsed.data.text).then(
    (list) => scope.postMessage({ type: 'read', ...list }),
    (error: unknown) =>
      scope.postMessage({
        type: 'failed',
        unreadable: error instanceof UnreadableInputError,
        message: error instanceof Error ? error.message : String(error),
      }),
  );
});
