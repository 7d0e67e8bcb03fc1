import { parseReferenceList, type ParsedList } from './parse-references';
import { fromReaderSchema, type ToReader } from './reader-protocol';
import { UnreadableInputError } from './reference-input';

/**
 * Reads a reference list in a worker; stopping terminates the worker, wherever its reading is.
 * Where workers are unavailable (an old browser, a blocked script) the list is read here.
 */

function startWorker(): Worker | undefined {
  try {
    return typeof Worker === 'undefined' ? undefined : new Worker(new URL('./reference-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return undefined;
  }
}

async function readInline(text: string, signal: AbortSignal): Promise<ParsedList> {
  const list = await parseReferenceList(text);
  signal.throwIfAborted();
  return list;
}

/** Resolves with the list read; rejects with UnreadableInputError for what is not a list, with the signal's reason when stopped. */
export function readReferences(text: string, signal: AbortSignal): Promise<ParsedList> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  const worker = startWorker();
  if (!worker) return readInline(text, signal);
  return new Promise<ParsedList>((resolve, reject) => {
    let heard = false;
    const finish = (settle: () => void) => {
      worker.terminate();
      signal.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => finish(() => reject(signal.reason as Error));
    signal.addEventListener('abort', onAbort, { once: true });
    worker.addEventListener('message', (event: MessageEvent<unknown>) => {
      heard = true;
      const message = fromReaderSchema.safeParse(event.data);
      if (!message.success) return finish(() => reject(new Error('the reader sent what it should not.')));
      const { data } = message;
      if (data.type === 'read') finish(() => resolve({ references: data.references, leftOut: data.leftOut }));
      else finish(() => reject(data.unreadable ? new UnreadableInputError(data.message) : new Error(data.message)));
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      // A worker that never answered did not load: read the list here instead.
      if (heard) finish(() => reject(new Error('the reader stopped unexpectedly.')));
      else finish(() => void readInline(text, signal).then(resolve, reject));
    });
    worker.postMessage({ type: 'read', text } satisfies ToReader);
  });
}
