import type { Deployment } from '../../deployments/schema';
import { formatWorkVersions, totalWorksHeader, workVersionsHeader } from '../../formats/extension-headers';
import { etagOf, packChunksInTurns } from '../render/body-bytes';
import { docParts, type PageRendering } from '../render/page-body';
import { windowOf, worksOfDocs, type PageWorks, type WorksRendering } from '../render/work-page';
import type { Criteria, RecordStore, RenderedPage } from '../store/types';
import { bulkTurn } from './flow-control';

/**
 * `group=work` pages (render/work-page.ts says how works are formed): the window of the
 * search a page's works are formed in is asked of the store with the page's works to list,
 * so a pooled store's worker groups and renders it and the main thread only sends it.
 */

export interface GroupedPage extends RenderedPage {
  readonly headers: Readonly<Record<string, string>>;
}

/** A page of works rendered in this thread, for a store that cannot render pages itself; in turns for long bodies. */
async function worksInThisThread(
  store: RecordStore,
  deployment: Deployment,
  criteria: Criteria,
  rendering: PageRendering,
  works: WorksRendering,
): Promise<RenderedPage & { readonly works: PageWorks }> {
  const result = await store.search(deployment.key, criteria);
  const docs = result.json ?? result.records.map((record) => JSON.stringify(record));
  const page = worksOfDocs(deployment, docs, works);
  const turn = () => bulkTurn(page.listed.length);
  await turn();
  const marked = new Set(result.generated);
  const generated = page.ids.filter((id) => marked.has(id));
  const body = await packChunksInTurns(docParts(deployment, page.listed, rendering, generated), turn);
  return { total: result.total, body, etag: etagOf(body, store.revision), generated, works: page.works };
}

/** A page of the search as works with their versions, and the headers that say which records are versions of one work. */
export async function groupedPage(
  store: RecordStore,
  deployment: Deployment,
  criteria: Criteria,
  page: number,
  rows: number,
  rendering: PageRendering,
): Promise<GroupedPage> {
  const window = windowOf(page, rows);
  const works = { from: criteria.offset - window.start, rows };
  const windowCriteria = { ...criteria, offset: window.start, limit: window.size };
  const rendered = store.page
    ? await store.page(deployment.key, windowCriteria, { ...rendering, works })
    : await worksInThisThread(store, deployment, windowCriteria, rendering, works);
  const listed = rendered.works;
  if (!listed) throw new Error('the store rendered a page of works without its works');
  // Every work is counted only where the window holds the whole result.
  const whole = window.start === 0 && rendered.total <= window.size;
  return {
    ...rendered,
    headers: {
      [workVersionsHeader]: formatWorkVersions(listed.versions),
      ...(whole ? { [totalWorksHeader]: String(listed.inWindow) } : {}),
    },
  };
}
