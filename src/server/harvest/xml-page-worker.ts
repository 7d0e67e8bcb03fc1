import { parentPort } from 'node:worker_threads';
import { deploymentByKey } from '../../deployments/registry';
import type { DeploymentKey } from '../../deployments/schema';
import { ImportError, parseUpstreamXml, type ImportErrorLocation } from '../import/upstream';
import type { StoredRecord } from '../store/types';

/** One large XML page parsed off the harvest's main thread (xml-page.ts). */

export interface XmlPageRequest {
  readonly deployment: DeploymentKey;
  readonly text: string;
  readonly source: string;
}

export type XmlPageReply =
  | { readonly records: StoredRecord[] }
  | { readonly importError: { readonly source: string; readonly problem: string; readonly location: ImportErrorLocation } }
  | { readonly failure: string };

parentPort!.once('message', ({ deployment, text, source }: XmlPageRequest) => {
  let reply: XmlPageReply;
  try {
    reply = { records: parseUpstreamXml(deploymentByKey(deployment)!, text, source) };
  } catch (error) {
    reply =
      error instanceof ImportError
        ? { importError: { source: error.source, problem: error.problem, location: error.location } }
        : { failure: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
