import type { ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { citationMeta } from './citation-meta';
import { workKind } from './work-kinds';

/**
 * COinS: a record as an OpenURL 1.0 ContextObject in key/encoded-value form, for the title of
 * a `span.Z3988` in result lists, so a reference manager offers to capture every result.
 * Built from the same meta tags as the record page.
 */
export function coinsOf(deployment: Deployment, record: ApiRecord): string {
  const tags = citationMeta(deployment, record);
  const value = (name: string) => tags.find(([tag]) => tag === name)?.[1];
  const journal = workKind(deployment, record) === 'journal-article';
  const params = new URLSearchParams({
    ctx_ver: 'Z39.88-2004',
    rft_val_fmt: journal ? 'info:ofi/fmt:kev:mtx:journal' : 'info:ofi/fmt:kev:mtx:dc',
  });
  const title = value('citation_title');
  if (title) params.append(journal ? 'rft.atitle' : 'rft.title', title);
  if (journal && value('citation_journal_title')) params.append('rft.jtitle', value('citation_journal_title')!);
  for (const [name, content] of tags) {
    if (name === 'citation_author') params.append(journal ? 'rft.au' : 'rft.creator', content);
  }
  const date = value('citation_publication_date');
  if (date) params.append('rft.date', date.replaceAll('/', '-'));
  if (journal && value('citation_volume')) params.append('rft.volume', value('citation_volume')!);
  if (journal && value('citation_issue')) params.append('rft.issue', value('citation_issue')!);
  if (!journal) params.append('rft.type', value('DC.type') ?? 'Text');
  const doi = value('citation_doi');
  if (doi) params.append('rft_id', `info:doi/${doi}`);
  return params.toString();
}
