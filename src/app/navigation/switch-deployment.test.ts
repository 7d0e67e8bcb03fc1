import { describe, expect, test } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { entriesOf } from '../navigation/query-params';
import { convertCriteria, droppedNotice } from './switch-deployment';

const lit = deploymentByKey('LIT')!;
const enr = deploymentByKey('ENR')!;
const mm = deploymentByKey('MM')!;
const dc0 = deploymentByKey('DC0')!;

describe('convertCriteria', () => {
  test('LIT → ENR: dates change format, LIT-only criteria are dropped, the page resets', () => {
    const result = convertCriteria(
      lit,
      enr,
      entriesOf('?q=x&publication_date_start=01/15/2020&has_fulltext=true&subject=fusion&page=4&rows=50'),
    );
    expect(result.entries).toEqual([
      ['q', 'x'],
      ['publication_date_start', '01-15-2020'],
      ['rows', '50'],
    ]);
    expect(result.dropped).toEqual(['Full text available', 'Subject']);
  });

  test('organisation parameters follow MM’s plural names both ways', () => {
    const toMm = convertCriteria(lit, mm, entriesOf('?sponsor_org=DOE&research_org=ORNL&fulltext=plasma'));
    expect(toMm.entries).toEqual([
      ['sponsor_orgs', 'DOE'],
      ['research_orgs', 'ORNL'],
    ]);
    expect(toMm.dropped).toEqual(['Full text']);
    const back = convertCriteria(mm, dc0, entriesOf('?contributing_orgs=ANL&mime_type=mp4&entry_date_end=2020-02-29'));
    expect(back.entries).toEqual([
      ['contributing_org', 'ANL'],
      ['entry_date_end', '02-29-2020'],
    ]);
    expect(back.dropped).toEqual(['Media type']);
  });

  test('extensions carry where the target has the facet and its server the extension; drops are named by label', () => {
    const source = entriesOf(
      '?q=plasma&product_type=Journal Article&facet.language=English&exclude.research_org=PPPL&facet.site_ownership_code=OSTI&journal_name=Nature',
    );
    const toMm = convertCriteria(lit, mm, source);
    expect(toMm.entries).toEqual([
      ['q', 'plasma'],
      ['product_type', 'Journal Article'],
      ['facet.language', 'English'],
      ['exclude.research_orgs', 'PPPL'],
      ['facet.site_ownership_code', 'OSTI'],
    ]);
    expect(toMm.dropped).toEqual(['Journal']);
    const toEnr = convertCriteria(lit, enr, source);
    expect(toEnr.entries.map(([name]) => name)).toEqual(['q', 'product_type', 'facet.language', 'exclude.research_org']);
    expect(toEnr.dropped).toEqual(['Site code', 'Journal']);
    // A spec server takes no extension: each is named by its label, never by its parameter.
    const toSpecServer = convertCriteria(lit, mm, source, { extensions: false });
    expect(toSpecServer.entries).toEqual([['q', 'plasma']]);
    expect(toSpecServer.dropped).toEqual(['Product type', 'Language', 'Research organisation (excluded)', 'Site code', 'Journal']);
  });

  test('an unreadable date is passed on for the server to judge', () => {
    expect(convertCriteria(lit, enr, entriesOf('?publication_date_start=02/30/2024')).entries).toEqual([
      ['publication_date_start', '02/30/2024'],
    ]);
  });

  test('empty values are not reported as dropped', () => {
    expect(convertCriteria(lit, mm, entriesOf('?has_fulltext=&q=x')).dropped).toEqual([]);
  });
});

describe('droppedNotice', () => {
  test('one, two and three labels', () => {
    expect(droppedNotice(['Media type'], lit)).toBe('Media type was not supported by Research literature v1 and was removed.');
    expect(droppedNotice(['Subject', 'DOI'], mm)).toBe('Subject and DOI were not supported by Multimedia catalog v1 and were removed.');
    expect(droppedNotice(['A', 'B', 'C'], mm)).toMatch(/^A, B and C were not supported by/);
    expect(droppedNotice([], mm)).toBeUndefined();
  });
});
