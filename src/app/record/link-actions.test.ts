import { expect, test } from 'vitest';
import { linkActions } from './link-actions';

test('typed links become named actions; only http(s) targets get an href', () => {
  const actions = linkActions([
    { rel: 'citation', href: 'https://example.test/biblio/1' },
    { rel: 'fulltext', href: 'javascript:alert(1)' },
    { rel: 'media', href: 'http://example.test/media/a.mp4' },
    { rel: 'other', href: 'ftp://example.test/x' },
    { rel: 'citation', href: '' },
  ]);
  expect(actions.map(({ name, href }) => [name, href])).toEqual([
    ['Citation page', 'https://example.test/biblio/1'],
    ['Full text', undefined],
    ['Media file', 'http://example.test/media/a.mp4'],
    ['Other', undefined],
  ]);
  expect(linkActions(null)).toEqual([]);
  expect(linkActions('nope')).toEqual([]);
});
