import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentTypes, negotiateFormat, type ResponseFormat } from './media-types';

describe('negotiateFormat', () => {
  it.each<[string, string | undefined | null, ResponseFormat]>([
    // The spec's default.
    ['no header', undefined, 'json'],
    ['a null header', null, 'json'],
    ['an empty header', '', 'json'],
    ['any type', '*/*', 'json'],
    ['application/json', 'application/json', 'json'],
    ['only unsupported types', 'text/html, image/png', 'json'],
    ['a malformed header', ';;, ,/,q=', 'json'],
    // The spec's table and docs/design.md's text/* aliases.
    ['application/xml', 'application/xml', 'xml'],
    ['text/xml', 'text/xml', 'xml'],
    ['application/x-bibtex', 'application/x-bibtex', 'bibtex'],
    ['text/x-bibtex', 'text/x-bibtex', 'bibtex'],
    ['upper case and parameters', 'Application/XML; charset=UTF-8', 'xml'],
    ['an unsupported type before a supported one', 'text/html, application/x-bibtex', 'bibtex'],
  ])('gives %s → %s', (_what, accept, format) => {
    expect(negotiateFormat(accept)).toBe(format);
  });

  it.each<[string, ResponseFormat]>([
    ['application/json;q=0.5, application/xml', 'xml'],
    ['application/xml;q=0.4, application/json;q=0.6', 'json'],
    ['application/x-bibtex;q=0.9, application/xml;q=0.8, */*;q=0.1', 'bibtex'],
    ['application/json; q=0.1, text/xml; q=0.2', 'xml'],
    ['application/xml;q=1.0, application/json;q=1', 'json'],
  ])('respects q-values: %s → %s', (accept, format) => {
    expect(negotiateFormat(accept)).toBe(format);
  });

  it.each<[string, ResponseFormat]>([
    // Excluding JSON with q=0 leaves the wildcard to pick among the others.
    ['application/json;q=0, */*', 'xml'],
    ['application/json;q=0, application/xml;q=0, text/xml;q=0, */*', 'bibtex'],
    ['application/xml;q=0, application/json;q=0.1', 'json'],
    // Nothing acceptable at all: fall back to the spec's default.
    ['application/xml;q=0', 'json'],
  ])('treats q=0 as "not acceptable": %s → %s', (accept, format) => {
    expect(negotiateFormat(accept)).toBe(format);
  });

  it('lets a specific range override a wildcard (RFC 9110 §12.5.1)', () => {
    expect(negotiateFormat('*/*;q=0.9, application/json;q=0.1')).toBe('xml');
    expect(negotiateFormat('application/*;q=0.2, application/x-bibtex;q=0.3')).toBe('bibtex');
  });

  it('serves a browser navigation as XML: the browser names XML (q=0.9) and JSON only via */* (q=0.8)', () => {
    // Chrome's and Firefox's default Accept for a top-level navigation.
    expect(negotiateFormat('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe('xml');
    expect(
      negotiateFormat(
        'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
      ),
    ).toBe('xml');
  });

  it('serves fetch()’s default Accept as JSON', () => {
    expect(negotiateFormat('*/*')).toBe('json');
  });

  it('always picks one of the three formats and never throws (property)', () => {
    const part = fc.oneof(
      fc.constantFrom(
        'application/json',
        'application/xml',
        'text/xml',
        'application/x-bibtex',
        'text/x-bibtex',
        '*/*',
        'application/*',
        'text/*',
        'text/html',
      ),
      fc.string({ maxLength: 8 }),
    );
    const range = fc
      .tuple(
        part,
        fc.option(fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }).map(String), fc.string({ maxLength: 3 })), { nil: undefined }),
      )
      .map(([type, q]) => (q === undefined ? type : `${type};q=${q}`));
    fc.assert(
      fc.property(fc.array(range, { maxLength: 6 }), (ranges) => {
        expect(Object.keys(contentTypes)).toContain(negotiateFormat(ranges.join(', ')));
      }),
      { numRuns: 200 },
    );
  });

  it('picks the format whose type is named with the highest q (property)', () => {
    const formats: [string, ResponseFormat][] = [
      ['application/json', 'json'],
      ['application/xml', 'xml'],
      ['application/x-bibtex', 'bibtex'],
    ];
    const q = fc.integer({ min: 1, max: 1000 }).map((value) => value / 1000);
    fc.assert(
      fc.property(fc.tuple(q, q, q), fc.shuffledSubarray([0, 1, 2], { minLength: 3, maxLength: 3 }), (qs, order) => {
        fc.pre(new Set(qs).size === 3);
        const accept = order.map((index) => `${formats[index]![0]};q=${qs[index]}`).join(', ');
        const best = formats[qs.indexOf(Math.max(...qs))]![1];
        expect(negotiateFormat(accept)).toBe(best);
      }),
      { numRuns: 100 },
    );
  });
});

describe('contentTypes', () => {
  it('names the spec’s media type for each format', () => {
    expect(contentTypes).toEqual({ json: 'application/json', xml: 'application/xml', bibtex: 'application/x-bibtex' });
  });
});
