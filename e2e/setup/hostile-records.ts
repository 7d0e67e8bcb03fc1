import type { Deployment } from '../../src/deployments/schema';
import type { StoredRecord } from '../../src/server/store/types';

/**
 * Records whose text is markup and script, and whose links are not web addresses: the app
 * must show the text as text and never turn such a target into a link. Ids are far from the
 * generated range so tests can open them directly.
 */
export const hostileIds = { markup: '90000001', scriptLinks: '90000002' } as const;

export const hostileTitleText = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script> Hostile title';

function blank(deployment: Deployment): Record<string, unknown> {
  return Object.fromEntries(
    deployment.fields.map((field) => [field.name, field.kind === 'list' || field.kind === 'links' ? [] : field.kind === 'number' ? null : '']),
  );
}

export function hostileRecords(deployment: Deployment): StoredRecord[] {
  const markup = {
    ...blank(deployment),
    repo_id: hostileIds.markup,
    title: hostileTitleText,
    authors: ['<b>Bold</b>, Eve [<a href="javascript:alert(1)">Org</a>]'],
    description: 'Plain <em>emphasis</em> and <script>window.__pwned=1</script> must show as typed.',
    publication_date: '2020-01-01T00:00:00Z',
    links: [{ rel: 'citation', href: 'https://example.org/records/90000001' }],
  };
  const scriptLinks = {
    ...blank(deployment),
    repo_id: hostileIds.scriptLinks,
    title: 'Record whose links are not web addresses',
    publication_date: '2020-01-02T00:00:00Z',
    links: [
      { rel: 'citation', href: 'javascript:window.__pwned=1' },
      { rel: 'fulltext', href: 'data:text/html,<script>window.__pwned=1</script>' },
    ],
  };
  return [{ record: markup }, { record: scriptLinks }] as StoredRecord[];
}
