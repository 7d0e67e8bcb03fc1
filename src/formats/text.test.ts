import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bareDoi, doiOf, escapeHtml, escapeXml, isHttpUrl, stripInvalidXmlChars, valuesOf } from './text';

describe('bareDoi', () => {
  it.each([
    ['10.15121/2368548', '10.15121/2368548'],
    ['https://doi.org/10.15121/2368548', '10.15121/2368548'],
    ['http://doi.org/10.15121/2368548', '10.15121/2368548'],
    ['https://dx.doi.org/10.15121/2368548', '10.15121/2368548'],
    ['http://dx.doi.org/10.15121/2368548', '10.15121/2368548'],
    ['HTTPS://DOI.ORG/10.15121/ABC', '10.15121/ABC'],
    ['doi:10.15121/2368548', '10.15121/2368548'],
    ['DOI: 10.15121/2368548', '10.15121/2368548'],
    ['  https://doi.org/10.15121/2368548  ', '10.15121/2368548'],
    // The suffix is kept as written: it may itself contain slashes and URL-like text.
    [
      'https://doi.org/10.1002/(SICI)1097-4636(199706)35:4<479::AID-JBM8>3.0.CO;2-A',
      '10.1002/(SICI)1097-4636(199706)35:4<479::AID-JBM8>3.0.CO;2-A',
    ],
    ['10.5555/https://doi.org/x', '10.5555/https://doi.org/x'],
    ['', ''],
  ])('%j → %j', (stored, bare) => {
    expect(bareDoi(stored)).toBe(bare);
  });

  it('gives the same DOI from every stored form (property)', () => {
    const doi = fc
      .tuple(fc.integer({ min: 1000, max: 99999 }), fc.stringMatching(/^[A-Za-z0-9._;()/:-]{1,20}$/))
      .map(([prefix, suffix]) => `10.${prefix}/${suffix}`);
    const form = fc.constantFrom('', 'https://doi.org/', 'http://dx.doi.org/', 'https://dx.doi.org/', 'doi:', 'DOI:');
    fc.assert(
      fc.property(doi, form, (bare, prefix) => {
        expect(bareDoi(`${prefix}${bare}`)).toBe(bare);
        expect(bareDoi(bareDoi(`${prefix}${bare}`))).toBe(bare);
      }),
      { numRuns: 100 },
    );
  });
});

describe('isHttpUrl', () => {
  it.each(['https://www.osti.gov/biblio/2368548', 'http://example.org', 'HTTPS://EXAMPLE.ORG/a?b=c#d', 'https://[::1]:8080/x'])(
    'accepts %s',
    (url) => {
      expect(isHttpUrl(url)).toBe(true);
    },
  );

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://example.org/x',
    'mailto:someone@example.org',
    '/api/lit/v1/records/1',
    '//example.org/x',
    'example.org',
    'garbage',
    '',
    'https://',
  ])('rejects %j', (url) => {
    expect(isHttpUrl(url)).toBe(false);
  });

  it.each([null, undefined, 42, {}, ['https://x.org']])('rejects the non-string %j', (value) => {
    expect(isHttpUrl(value)).toBe(false);
  });

  it('accepts only strings a browser would open as http(s) (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.webUrl(),
          fc.string(),
          fc.constantFrom('javascript:', 'data:', 'http:', 'https:').chain((scheme) => fc.string().map((rest) => scheme + rest)),
        ),
        (value) => {
          if (isHttpUrl(value)) expect(['http:', 'https:']).toContain(new URL(value).protocol);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('stripInvalidXmlChars', () => {
  it('removes what XML 1.0 cannot carry', () => {
    expect(stripInvalidXmlChars('a\u0000b\u0001c\u0008d\u000Be\u000Cf\u001Fg')).toBe('abcdefg');
    expect(stripInvalidXmlChars('x\uFFFEy\uFFFFz')).toBe('xyz');
    expect(stripInvalidXmlChars('lone \uD800 high and \uDC00 low')).toBe('lone  high and  low');
    expect(stripInvalidXmlChars('reversed \uDC00\uD800 pair')).toBe('reversed  pair');
  });

  it('keeps tabs, line breaks, ordinary and astral characters', () => {
    const text = 'tab\there\nline\rCR é ∑ 中文 \u00A0 \uE000 \uFFFD 😀 𝔘';
    expect(stripInvalidXmlChars(text)).toBe(text);
  });

  it('leaves only XML characters and changes nothing that was valid (property)', () => {
    const xmlChar = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
    const anyUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) });
    fc.assert(
      fc.property(fc.oneof(anyUnits, fc.string({ unit: 'binary' })), (text) => {
        const stripped = stripInvalidXmlChars(text);
        expect(stripped).toMatch(xmlChar);
        if (xmlChar.test(text)) expect(stripped).toBe(text);
      }),
      { numRuns: 200 },
    );
  });
});

describe('escapeHtml', () => {
  it('escapes markup and double quotes, and only those, so text and attribute values stay text', () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry's&lt;/a&gt;");
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
    expect(escapeHtml('plain text, ünïcode')).toBe('plain text, ünïcode');
  });
});

describe('escapeXml', () => {
  it('escapes the five XML specials', () => {
    expect(escapeXml(`<a href="x">Tom & Jerry's</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;');
  });

  it('does not double-escape text that looks like an entity', () => {
    expect(escapeXml('&amp;')).toBe('&amp;amp;');
  });

  it('strips what XML cannot carry even where nothing needs escaping', () => {
    expect(escapeXml('bell\u0007 and lone \uD800 and \uFFFF')).toBe('bell and lone  and ');
  });

  it('escapes any string exactly as stripping and replacing the five specials would, fast path or not (property)', () => {
    const anyUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) });
    fc.assert(
      fc.property(fc.oneof(anyUnits, fc.string({ unit: 'binary' }), fc.string()), (text) => {
        const escaped = escapeXml(text);
        expect(escaped).toBe(
          stripInvalidXmlChars(text)
            .replace(/&/g, '&amp;')
            .replace(/</g, '&lt;')
            .replace(/>/g, '&gt;')
            .replace(/"/g, '&quot;')
            .replace(/'/g, '&apos;'),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('valuesOf', () => {
  it('reads scalars, lists and empties of a record field as strings', () => {
    expect(valuesOf('a')).toEqual(['a']);
    expect(valuesOf(['a', 'b'])).toEqual(['a', 'b']);
    expect(valuesOf(42)).toEqual(['42']);
    expect(valuesOf(null)).toEqual([]);
    expect(valuesOf(undefined)).toEqual([]);
    expect(valuesOf(['a', null, 'b'])).toEqual(['a', 'b']);
  });
});

describe('doiOf', () => {
  it('every DOI links to the resolver, with the bare DOI as its text', () => {
    expect(doiOf('10.11578/dc.20230101.1')).toEqual({ doi: '10.11578/dc.20230101.1', url: 'https://doi.org/10.11578/dc.20230101.1' });
    expect(doiOf('https://doi.org/10.25982/53247.64/1670777')).toEqual({
      doi: '10.25982/53247.64/1670777',
      url: 'https://doi.org/10.25982/53247.64/1670777',
    });
    expect(doiOf('doi:10.1000/xyz')?.url).toBe('https://doi.org/10.1000/xyz');
    // Characters that would end or redirect a URL are escaped.
    expect(doiOf('10.1002/(SICI)1097-4636#x?y')?.url).toBe('https://doi.org/10.1002/(SICI)1097-4636%23x%3Fy');
    expect(doiOf('not a doi')).toBeUndefined();
    expect(doiOf('javascript:alert(1)')).toBeUndefined();
    expect(doiOf('')).toBeUndefined();
  });
});
