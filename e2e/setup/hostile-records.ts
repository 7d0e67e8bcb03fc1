import type { Deployment } from '../../src/deployments/schema';
import type { StoredRecord } from '../../src/server/store/types';

/**
 * Records whose text is markup and script, and whose links are not web addresses: the app
 * must show the text as text and never turn such a target into a link. Ids are far from the
 * generated range so tests can open them directly.
 */
export const hostileIds = {
  markup: '90000001',
  scriptLinks: '90000002',
  richMarkup: '90000003',
  entities: '90000004',
  zalgo: '90000005',
  zalgoCompanion: '90000006',
} as const;

/** Text under stacks of combining marks ("zalgo"): each letter carries forty of them. */
export const zalgoText = (letters: number) =>
  Array.from(
    { length: letters },
    (_, index) =>
      `${'zalgoplasm'[index % 10]!}${Array.from({ length: 40 }, (_, mark) => String.fromCharCode(0x300 + ((index + mark * 7) % 0x70))).join('')}`,
  ).join('');
/** The word both zalgo records hold, which nothing else in the store does. */
export const zalgoWord = 'Zalgoplasm';

/** A venue and a product type written with entities, as upstream records write them; readers see `&`. */
export const entityVenue = 'Physical Review &amp; Letters';
export const entityTitle = 'Entities &amp; ampersands in the venue line';

export const hostileTitleText = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script> Hostile title';

/** Allow-listed markup carrying what must not survive: handlers, script links, styles, broken nesting. */
export const richHostileTitle =
  'CO<sub onmouseover="window.__pwned=1">2</sub> <a href="javascript:window.__pwned=1">trap</a> <b style="x"><i>nested</b> unclosed <sup>sup';
export const richHostileDescription =
  '<p onclick="window.__pwned=1">First paragraph.<ul><li onclick="window.__pwned=1">one<li>two</ul><a href=" JavaScript:window.__pwned=1">still text</a> <a href="https://example.org/ok">a web link</a>';

function blank(deployment: Deployment): Record<string, unknown> {
  return Object.fromEntries(
    deployment.fields.map((field) => [
      field.name,
      field.kind === 'list' || field.kind === 'links' ? [] : field.kind === 'number' ? null : '',
    ]),
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
  const richMarkup = {
    ...blank(deployment),
    repo_id: hostileIds.richMarkup,
    title: richHostileTitle,
    description: richHostileDescription,
    publication_date: '2020-01-03T00:00:00Z',
  };
  const entities = {
    ...blank(deployment),
    repo_id: hostileIds.entities,
    title: entityTitle,
    authors: ['Entity, Ann'],
    publication_date: '2020-01-04T00:00:00Z',
    ...(deployment.fields.some((field) => field.name === 'journal_name') ? { journal_name: entityVenue } : {}),
    ...(deployment.fields.some((field) => field.name === 'product_type') ? { product_type: 'Journal Article' } : {}),
  };
  const zalgo = {
    ...blank(deployment),
    repo_id: hostileIds.zalgo,
    title: `${zalgoWord} ${zalgoText(300)} chains`,
    authors: [`${zalgoText(60)}, Zed`, `Marks, ${zalgoText(60)}`],
    description: `${zalgoWord} ${zalgoText(400)}`,
    publication_date: '2020-01-05T00:00:00Z',
  };
  const zalgoCompanion = {
    ...blank(deployment),
    repo_id: hostileIds.zalgoCompanion,
    title: `${zalgoWord} chains in an ordinary title`,
    authors: ['Plain, Pat'],
    publication_date: '2020-01-06T00:00:00Z',
  };
  return [
    { record: markup },
    { record: scriptLinks },
    { record: richMarkup },
    { record: entities },
    { record: zalgo },
    { record: zalgoCompanion },
  ] as StoredRecord[];
}
