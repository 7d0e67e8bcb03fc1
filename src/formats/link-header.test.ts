import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatLinkHeader, parseLinkHeader } from './link-header';

const base = 'https://records.example.org/api/lit/v1/records?q=fusion&rows=20';

describe('formatLinkHeader', () => {
  it('writes RFC 8288 links with quoted rels, comma-separated', () => {
    expect(
      formatLinkHeader([
        { rel: 'next', href: 'https://x.org/records?page=2&rows=20' },
        { rel: 'last', href: 'https://x.org/records?page=13&rows=20' },
      ]),
    ).toBe('<https://x.org/records?page=2&rows=20>; rel="next", <https://x.org/records?page=13&rows=20>; rel="last"');
  });
});

describe('parseLinkHeader', () => {
  it('reads back what formatLinkHeader writes (property)', () => {
    const rel = fc.constantFrom('first', 'prev', 'next', 'last');
    // Real page URLs: whatever URL serialisation gives, commas and semicolons in the query included.
    const href = fc
      .record({ path: fc.webPath(), q: fc.string(), page: fc.integer({ min: 1, max: 1_000_000 }) })
      .map(({ path, q, page }) => {
        const url = new URL(`https://records.example.org${path}`);
        url.searchParams.set('q', q);
        url.searchParams.set('page', String(page));
        url.searchParams.set('rows', '20');
        return url.href;
      });
    fc.assert(
      fc.property(fc.uniqueArray(fc.record({ rel, href }), { selector: (link) => link.rel, maxLength: 4 }), (links) => {
        expect(parseLinkHeader(formatLinkHeader(links))).toEqual(Object.fromEntries(links.map((link) => [link.rel, link.href])));
      }),
      { numRuns: 100 },
    );
  });

  it('returns no links for a missing or empty header', () => {
    expect(parseLinkHeader(undefined)).toEqual({});
    expect(parseLinkHeader(null)).toEqual({});
    expect(parseLinkHeader('')).toEqual({});
  });

  it('reads unquoted rel values', () => {
    expect(parseLinkHeader('<https://x.org/?page=2>; rel=next')).toEqual({ next: 'https://x.org/?page=2' });
  });

  it('reads several space-separated rels on one link', () => {
    expect(parseLinkHeader('<https://x.org/?page=13>; rel="next last"')).toEqual({
      next: 'https://x.org/?page=13',
      last: 'https://x.org/?page=13',
    });
  });

  it('ignores other parameters, wherever they stand, and rel case', () => {
    expect(
      parseLinkHeader(
        '<https://x.org/?page=1>; title="First, page; one"; rel="First"; type="application/json", <https://x.org/?page=3>; anchor="#a";REL=last',
      ),
    ).toEqual({ first: 'https://x.org/?page=1', last: 'https://x.org/?page=3' });
  });

  it('does not take rel-like text inside another parameter’s quoted value for the rel', () => {
    expect(parseLinkHeader('<https://x.org/?page=2>; title="see; rel=prev"; rel="next"')).toEqual({ next: 'https://x.org/?page=2' });
  });

  it('uses only the first rel parameter of a link', () => {
    expect(parseLinkHeader('<https://x.org/?page=2>; rel="next"; rel="last"')).toEqual({ next: 'https://x.org/?page=2' });
  });

  it('tolerates whitespace and line folding around the parts', () => {
    expect(parseLinkHeader('  < https://x.org/?page=2 >  ;  rel = "next"  ,\n\t<https://x.org/?page=9>;rel="last"  ')).toEqual({
      next: 'https://x.org/?page=2',
      last: 'https://x.org/?page=9',
    });
  });

  it('resolves relative URLs against the request URL', () => {
    expect(parseLinkHeader('</api/lit/v1/records?page=2&rows=20>; rel="next", <?page=13&rows=20>; rel="last"', base)).toEqual({
      next: 'https://records.example.org/api/lit/v1/records?page=2&rows=20',
      last: 'https://records.example.org/api/lit/v1/records?page=13&rows=20',
    });
  });

  it('keeps the first link when a rel repeats', () => {
    expect(parseLinkHeader('<https://x.org/a>; rel="next", <https://x.org/b>; rel="next"')).toEqual({ next: 'https://x.org/a' });
  });

  it('treats rel names that are object keys as plain names', () => {
    const links = parseLinkHeader('<https://x.org/a>; rel="__proto__ constructor toString next"');
    expect(links.next).toBe('https://x.org/a');
    expect(links.constructor).toBe('https://x.org/a');
    expect(Object.getPrototypeOf(links)).toBe(Object.prototype);
  });

  it('skips links without a rel and keeps the rest', () => {
    expect(parseLinkHeader('<https://x.org/a>, <https://x.org/b>; rel="next"')).toEqual({ next: 'https://x.org/b' });
  });

  it('skips a link whose target cannot be resolved', () => {
    expect(parseLinkHeader('<http://[::1/>; rel="next", <https://x.org/b>; rel="last"', base)).toEqual({ last: 'https://x.org/b' });
  });

  it.each(['garbage', '<', '>; rel="next"', ';;;,,,', 'rel="next"', '<a>; rel=', '<https://x.org/>; rel="next'])(
    'never throws on %j',
    (header) => {
      expect(() => parseLinkHeader(header)).not.toThrow();
      expect(() => parseLinkHeader(header, base)).not.toThrow();
    },
  );

  it('never throws on any header or base, and only returns strings (property)', () => {
    const header = fc.string({
      unit: fc.oneof(fc.constantFrom('<', '>', ';', ',', '"', '=', ' ', 'rel', 'next', 'http://', '/'), fc.string({ maxLength: 2 })),
    });
    fc.assert(
      fc.property(header, fc.option(fc.oneof(fc.webUrl(), fc.string()), { nil: undefined }), (value, maybeBase) => {
        const links = parseLinkHeader(value, maybeBase);
        for (const target of Object.values(links)) expect(typeof target).toBe('string');
      }),
      { numRuns: 300 },
    );
  });
});
