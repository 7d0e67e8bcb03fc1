import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { unapiId } from '../../formats/citation-meta';
import { coinsOf } from '../../formats/coins';
import { firstKnown } from '../../formats/known-values';
import { toPlainLine } from '../../formats/rich-text';
import { escapeXml } from '../../formats/text';
import type { RecordStore } from '../store/types';
import { BadRequest, parseListRequest } from './criteria';
import { parseQueryString, type QueryPair } from './query-string';

/**
 * The results of a search page (`/{slug}?<the API's query string>`) as plain HTML inside the
 * app's root, for clients that run no script: reference managers offer each result as an
 * item from its COinS span and unAPI id (Zotero's translation server), and a reader without
 * JavaScript sees the titles. The app replaces it when it starts.
 */
export async function searchPageBody(store: RecordStore, deployment: Deployment, search: string): Promise<string> {
  let pairs: QueryPair[];
  try {
    pairs = parseQueryString(search);
  } catch {
    return '';
  }
  let request;
  try {
    request = parseListRequest(deployment, pairs);
  } catch (error) {
    // The app says what is wrong with a search; the page then holds no results.
    if (error instanceof BadRequest) return '';
    throw error;
  }
  const { records } = await store.search(deployment.key, request.criteria);
  if (records.length === 0) return '';
  return `<ol class="server-results">${records.map((record) => resultItem(deployment, record)).join('')}</ol>`;
}

function resultItem(deployment: Deployment, record: ApiRecord): string {
  const title = toPlainLine(firstKnown(record.title) ?? `Record ${record.repo_id}`);
  const path = `/${deployment.slug}/records/${encodeURIComponent(record.repo_id)}`;
  return (
    `<li><a href="${escapeXml(path)}">${escapeXml(title)}</a>` +
    `<span class="Z3988" title="${escapeXml(coinsOf(deployment, record))}"></span>` +
    `<abbr class="unapi-id" title="${escapeXml(unapiId(deployment, record.repo_id))}"></abbr></li>`
  );
}
