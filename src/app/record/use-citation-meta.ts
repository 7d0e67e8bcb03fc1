import { useEffect } from 'react';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { citationMeta } from '../../formats/citation-meta';

/**
 * The record's citation meta tags in the document head while its page is shown: the ones the
 * server wrote into the first page, or a previous record's, are replaced, and a browser
 * reference manager (Zotero's connector) is told to look again.
 */
export function useCitationMeta(deployment: Deployment, record: ApiRecord | undefined): void {
  useEffect(() => {
    const previous = () => document.head.querySelectorAll('meta[data-record-meta]').forEach((element) => element.remove());
    previous();
    if (!record) return previous;
    for (const [name, content] of citationMeta(deployment, record)) {
      const meta = document.createElement('meta');
      meta.name = name;
      meta.content = content;
      meta.setAttribute('data-record-meta', '');
      document.head.append(meta);
    }
    document.dispatchEvent(new Event('ZoteroItemUpdated', { bubbles: true, cancelable: true }));
    return previous;
  }, [deployment, record]);
}
