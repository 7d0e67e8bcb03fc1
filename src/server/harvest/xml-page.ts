import { deploymentByKey } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { ImportError, parseUpstreamXml } from '../import/upstream';
import type { StoredRecord } from '../store/types';
import { bundleThread } from '../bundle-thread.js';
import { bundledModule } from '../module-bundle.js';
import { HarvestStopped } from './request';
import type { XmlPageReply, XmlPageRequest } from './xml-page-worker';

/**
 * A harvest's XML page, parsed where a stop can reach it. XML cannot be cut into records
 * before it is parsed as JSON can (a `</record>` may stand in a comment or CDATA section), and
 * one record just under the size limit takes over a second to parse: a page of them held the
 * thread, and a SIGTERM, for as long as the parse took (15 s for 59 MB). A page this large is
 * parsed on a worker thread, which a stop terminates at once; a smaller one, parsed faster
 * than a thread starts, here.
 */
export const offThreadChars = 1024 * 1024;

const workerEntry = new URL('./xml-page-worker.ts', import.meta.url);

export async function parseXmlPage(deployment: Deployment, text: string, source: string, stop?: AbortSignal): Promise<StoredRecord[]> {
  // A deployment the worker cannot look up by its key (a test's own) is parsed here.
  if (text.length < offThreadChars || deploymentByKey(deployment.key) !== deployment) return parseUpstreamXml(deployment, text, source);
  const script = await bundledModule(workerEntry);
  if (stop?.aborted) throw new HarvestStopped('stopped');
  const worker = bundleThread(script);
  let onStop = () => {};
  try {
    const reply = await new Promise<XmlPageReply>((resolve, reject) => {
      onStop = () => reject(new HarvestStopped('stopped'));
      stop?.addEventListener('abort', onStop, { once: true });
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) =>
        reject(new Error(`the XML page ${source} could not be parsed (its worker stopped with exit code ${code})`)),
      );
      worker.postMessage({ deployment: deployment.key, text, source } satisfies XmlPageRequest);
    });
    if ('records' in reply) return reply.records;
    if ('importError' in reply) throw new ImportError(reply.importError.source, reply.importError.problem, reply.importError.location);
    throw new Error(reply.failure);
  } finally {
    stop?.removeEventListener('abort', onStop);
    // A stop ends the parse where it is.
    void worker.terminate();
  }
}
