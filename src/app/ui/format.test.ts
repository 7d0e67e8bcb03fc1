import { expect, test } from 'vitest';
import { authorNames, formatCount, formatDate, personOf } from './format';
import { firstRecordText } from '../../formats/record-text';

/** One field value as the record would carry it. */
const text = (value: string) => firstRecordText(value)!;

test('counts as the live region says them', () => {
  expect(formatCount(0)).toBe('No results');
  expect(formatCount(1)).toBe('1 result');
  expect(formatCount(1234)).toBe('1,234 results');
});

test('dates are UTC days; other text is left alone', () => {
  expect(formatDate('2024-04-20T04:00:00Z')).toEqual({ text: 'Apr 20, 2024', iso: '2024-04-20' });
  expect(formatDate('2024-01-01T00:00:00-05:00').iso).toBe('2024-01-01');
  expect(formatDate('sometime')).toEqual({ text: 'sometime' });
});

test('author names without affiliation or ORCID, limited', () => {
  expect(authorNames(['Curie, Marie [Sorbonne] (ORCID:0000000218250097)', 'Bohr, N.'])).toEqual({
    names: ['Curie, Marie', 'Bohr, N.'],
    more: 0,
  });
  expect(authorNames(['a', 'b', 'c'], 2)).toEqual({ names: ['a', 'b'], more: 1 });
});

test('a person on the record page: the name, the affiliation apart, the ORCID as a link', () => {
  expect(
    personOf(text('Udwary, Daniel [USDOE Joint Genome Institute (JGI), Berkeley, CA (United States)] (ORCID:0000000234910198)')),
  ).toEqual({
    name: 'Udwary, Daniel',
    affiliation: 'USDOE Joint Genome Institute (JGI), Berkeley, CA (United States)',
    orcid: { id: '0000-0002-3491-0198', url: 'https://orcid.org/0000-0002-3491-0198' },
  });
  // The same name the result list shows.
  expect(personOf(text('Curie, Marie [Sorbonne] (ORCID:0000000218250097)')).name).toBe(authorNames(['Curie, Marie [Sorbonne]']).names[0]);
  expect(personOf(text('ATLAS Collaboration'))).toEqual({ name: 'ATLAS Collaboration' });
  // An iD that is not 16 characters is shown, but not linked to a page that cannot exist.
  expect(personOf(text('Doe, J. (ORCID:12345)')).orcid).toEqual({ id: '12345' });
  // Only an affiliation: the organisation is the name.
  expect(personOf(text('[Argonne National Laboratory]'))).toEqual({ name: 'Argonne National Laboratory' });
  // Names go through the text model: entities decoded, markup read as the words it wraps.
  expect(personOf(text('<b>Bold</b>, Eve [<a href="javascript:alert(1)">Org</a>]'))).toEqual({ name: 'Bold, Eve', affiliation: 'Org' });
  expect(personOf(text('M&uuml;ller, J&#246;rg <script>x</script>'))).toEqual({ name: 'Müller, Jörg <script>x</script>' });
});

test('a generated record’s ORCID iD (0000-0000-…, below any ORCID issues) is shown as text, never linked to orcid.org', () => {
  expect(personOf(text('Baker, W. P. [Demo Lab] (ORCID:0000000012345675)')).orcid).toEqual({ id: '0000-0000-1234-5675' });
  // The lowest iD ORCID issues, and one of its newer 0009 range, stay links.
  expect(personOf(text('Low, A. (ORCID:0000000150000007)')).orcid?.url).toBe('https://orcid.org/0000-0001-5000-0007');
  expect(personOf(text('New, B. (ORCID:0009000012345678)')).orcid?.url).toBe('https://orcid.org/0009-0000-1234-5678');
});
