import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { apiError, apiErrorSchema, errorFromText, errorToJson, errorToText, errorToXml, type ApiError } from './error';

const notFound: ApiError = {
  statusCode: 404,
  statusMessage: 'Not Found',
  errorDescription: 'No record matches the identifier 123.',
};

const xmlParser = new XMLParser({ parseTagValue: false, trimValues: false });

describe('apiError', () => {
  it.each([
    [400, 'Bad Request'],
    [401, 'Unauthorized'],
    [404, 'Not Found'],
    [405, 'Method Not Allowed'],
    [500, 'Internal Error'],
  ])('gives %i the status message %s', (status, message) => {
    expect(apiError(status, 'why')).toEqual({ statusCode: status, statusMessage: message, errorDescription: 'why' });
  });

  it('still gives a message for a status it has no name for', () => {
    expect(apiError(418, 'teapot').statusMessage.length).toBeGreaterThan(0);
  });
});

describe('errorToJson', () => {
  it('is a single object with the spec’s three fields', () => {
    const parsed: unknown = JSON.parse(errorToJson(notFound));
    expect(parsed).toEqual(notFound);
    expect(apiErrorSchema.parse(parsed)).toEqual(notFound);
  });
});

describe('errorToXml', () => {
  it('is a root error element with statusCode, statusMessage and errorDescription children', () => {
    const xml = errorToXml(notFound);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xmlParser.parse(xml)).toEqual({
      '?xml': '',
      error: { statusCode: '404', statusMessage: 'Not Found', errorDescription: 'No record matches the identifier 123.' },
    });
  });

  it('escapes markup in the description', () => {
    const error = apiError(400, 'Unknown parameter "<script>" & more; did you mean \'title\'?');
    const xml = errorToXml(error);
    expect(xml).not.toContain('<script>');
    expect(xmlParser.parse(xml).error.errorDescription).toBe(error.errorDescription);
  });
});

describe('errorToText', () => {
  it('is three lines: status code, status message, description', () => {
    expect(errorToText(notFound).split('\n').filter(Boolean)).toEqual(['404', 'Not Found', 'No record matches the identifier 123.']);
  });

  it('keeps to three lines when the description has line breaks', () => {
    const text = errorToText(apiError(400, 'first line\nsecond line\r\nthird\rfourth'));
    const lines = text.trimEnd().split(/\r?\n|\r/);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^first line\s+second line\s+third\s+fourth$/);
  });

  it('keeps to three lines for any description (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '\n', '\r', 'é', ':') }), (description) => {
        const lines = errorToText(apiError(400, description))
          .replace(/\n$/, '')
          .split(/\r?\n|\r/);
        expect(lines).toHaveLength(3);
        expect(lines[0]).toBe('400');
      }),
      { numRuns: 100 },
    );
  });
});

describe('errorFromText', () => {
  it('reads the three-line form back', () => {
    expect(errorFromText(errorToText(notFound))).toEqual(notFound);
    expect(errorFromText('404\r\nNot Found\r\nNo record matches the identifier 123.\r\n')).toEqual(notFound);
  });

  it('round-trips any single-line message and description (property)', () => {
    const line = fc
      .string({ unit: 'grapheme', minLength: 1 })
      .map((text) => text.replace(/\s+/g, ' ').trim())
      .filter((text) => text.length > 0);
    fc.assert(
      fc.property(fc.constantFrom(400, 401, 404, 405, 500), line, line, (statusCode, statusMessage, errorDescription) => {
        const error = { statusCode, statusMessage, errorDescription };
        expect(errorFromText(errorToText(error))).toEqual(error);
      }),
      { numRuns: 100 },
    );
  });

  it.each([
    ['an empty body', ''],
    ['a BibTeX entry', '@misc{OSTI_1,\n  title = {T}\n}\n'],
    ['a code without a message', '404\n'],
    ['a word instead of a code', 'Error\nNot Found\nx'],
  ])('does not mistake %s for an error', (_what, text) => {
    expect(errorFromText(text)).toBeUndefined();
  });
});
