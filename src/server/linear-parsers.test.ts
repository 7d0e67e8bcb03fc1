import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../deployments/registry';
import { parseLinkHeader } from '../formats/link-header';
import { firstElementText } from '../formats/text';
import { retryAfterMs } from '../client/retry';
import { ImportError, parseUpstreamJson, parseUpstreamXml } from './import/upstream';
import { normalizeTimestamp } from './import/timestamps';
import { hasDoctypeInProlog } from './import/xml-records';
import { parseQuery } from './query/parse';
import { deployments } from '../deployments/registry';
import { parseListRequest, splitIdList } from './http/criteria';

/**
 * Every parser that reads what a client or a source sends, fed ten times the input that
 * made the old, backtracking version hang. Each must simply finish: a linear parser takes
 * milliseconds, an exponential or quadratic one would take hours and fail the suite's
 * per-test limit. No test here measures time itself.
 */

const lit = deploymentByKey('LIT')!;
const megabyte = 1024 * 1024;

/** 28 processing instructions and comments before the root took 19.7 s; 40 never finished. */
const prologParts = 400;
const prolog = Array.from({ length: prologParts }, (_, i) => (i % 2 ? `<!-- note ${i} -->` : `<?app step="${i}"?>`)).join('\n');
const oneRecord = '<records><record><osti_id>7</osti_id><title>Plasma edge</title></record></records>';

describe('linear-time parsers of untrusted input', () => {
  it(`reads an XML document with ${prologParts} processing instructions and comments before its root`, () => {
    expect(hasDoctypeInProlog(`${prolog}\n${oneRecord}`)).toBe(false);
    expect(parseUpstreamXml(lit, `<?xml version="1.0"?>\n${prolog}\n${oneRecord}`, 'prolog.xml').map(({ record }) => record.title)).toEqual(
      ['Plasma edge'],
    );
  });

  it('still finds a DOCTYPE behind them, and an unclosed one, and one in any case', () => {
    expect(hasDoctypeInProlog(`${prolog}\n<!DOCTYPE records [<!ENTITY a "b">]>${oneRecord}`)).toBe(true);
    expect(hasDoctypeInProlog(`${prolog}<!doctype records>${oneRecord}`)).toBe(true);
    expect(hasDoctypeInProlog(`${'<?pi '.repeat(100_000)}`)).toBe(false);
    expect(hasDoctypeInProlog(`${'<!-- '.repeat(100_000)}`)).toBe(false);
    expect(hasDoctypeInProlog(`${oneRecord}<!DOCTYPE x>`)).toBe(false);
    const error = (() => {
      try {
        parseUpstreamXml(lit, `${prolog}<!DOCTYPE records>${oneRecord}`, 'doctype.xml');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toBe('doctype.xml: DOCTYPE declarations are not accepted');
  });

  it('refuses XML nested 1,000,000 deep, and a title of 30,000 nested tags, as input errors', () => {
    const deep = `<records>${'<a>'.repeat(1_000_000)}${'</a>'.repeat(1_000_000)}</records>`;
    expect(() => parseUpstreamXml(lit, deep, 'deep.xml')).toThrow(/deep\.xml: .*nest at most 100 deep/);
    const title = `<records><record><osti_id>1</osti_id><title>${'<b>'.repeat(30_000)}x${'</b>'.repeat(30_000)}</title></record></records>`;
    expect(() => parseUpstreamXml(lit, title, 'title.xml')).toThrow(ImportError);
    const json = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(() => parseUpstreamJson(lit, json, 'deep.json')).toThrow(ImportError);
  });

  it('reads a Link header of 10 MB of any shape (1 MB was retried for minutes)', () => {
    const size = 10 * megabyte;
    for (const unit of ['<', '<a>;', '<a>; rel="', '<a>; rel="next\\', ';rel=', '<a>; rel=next, ', '"<>"', '<a>;;;;']) {
      const header = unit.repeat(Math.ceil(size / unit.length));
      expect(typeof parseLinkHeader(header, 'https://source.example/')).toBe('object');
    }
    const real = `${'<https://source.example/x>; title="a, b; <c>", '.repeat(100_000)}<https://source.example/next>; rel="next"`;
    expect(parseLinkHeader(real, 'https://source.example/').next).toBe('https://source.example/next');
  });

  it('finds an element of an error body of 10 MB with many unclosed openings', () => {
    expect(firstElementText('<errorDescription>'.repeat(500_000), 'errorDescription')).toBeUndefined();
    expect(firstElementText(`${'<errorDescription>'.repeat(500_000)}why</errorDescription>`, 'errorDescription')).toMatch(/why$/);
  });

  it('splits a repo_id list of 80,000 spaces (8,000 took 80 ms with a pattern), and splits lists as before', () => {
    expect(splitIdList(`a${' '.repeat(80_000)}b`)).toEqual([`a${' '.repeat(80_000)}b`]);
    expect(splitIdList(`a${' OR'.repeat(40_000)} b`).filter(Boolean)).toEqual(['a', 'b']);
    expect(splitIdList('12 OR 13\tOR  14')).toEqual(['12', '13', '14']);
    expect(splitIdList('OR 12 OR')).toEqual(['OR 12 OR']);
    expect(splitIdList('12 or 13')).toEqual(['12 or 13']);
  });

  it('reads every parameter of every deployment at ten times the longest URL, in every hostile shape', () => {
    const size = 81_920;
    const shapes = [' ', 'a ', '(', ')', '"', '" ', ' OR', '-', '0', '2024-', '\\', '*', 'a:', '%', 'ä', '<'];
    for (const deployment of deployments) {
      for (const param of deployment.params) {
        for (const shape of shapes) {
          const value = shape.repeat(Math.ceil(size / shape.length));
          for (const options of [{}, { idLists: true }]) {
            try {
              parseListRequest(deployment, [[param.name, value]], options);
            } catch (error) {
              expect((error as Error).name, `${deployment.key} ${param.name}`).not.toBe('RangeError');
            }
          }
        }
      }
    }
  });

  it('reads Retry-After, timestamps and queries of any length', () => {
    expect(retryAfterMs(`Mon, ${'9'.repeat(megabyte)}`)).toBeUndefined();
    expect(retryAfterMs('1'.repeat(megabyte))).toBeUndefined();
    for (const text of ['2024-01-01T'.padEnd(megabyte, '0'), `2024-01-01T10:00:00.${'9'.repeat(megabyte)}x`, ' '.repeat(megabyte)]) {
      expect(normalizeTimestamp(text)).toBeUndefined();
    }
    // A query is at most a URL long (8 KB); ten times that of the shapes a parser backtracks on.
    for (const unit of ['(', '"', '("', 'a OR ', '-', '*', 'title:', '"a b" ', '\\']) {
      expect(() => parseQuery(unit.repeat(Math.ceil(81_920 / unit.length)))).not.toThrow(RangeError);
    }
  });
});
