import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { correctedStyle, styleCorrections } from './style-corrections';

const shippedFile = (path: string) => readFile(new URL(`../../../public/${path}`, import.meta.url), 'utf8');

describe('corrections to repository styles', () => {
  it.each(styleCorrections.map((correction) => [`${correction.file}: ${correction.why}`, correction] as const))(
    '%s: the published piece is in the file once, and is replaced',
    async (_name, correction) => {
      const xml = await shippedFile(correction.file);
      expect(xml.split(correction.find)).toHaveLength(2);
      const corrected = correctedStyle(correction.file, xml);
      expect(corrected).not.toBe(xml);
      expect(corrected.split(correction.replace)).toHaveLength(2);
    },
  );

  it('leaves every other style as published', async () => {
    const xml = await shippedFile('csl-styles/american-chemical-society.csl');
    expect(correctedStyle('csl-styles/american-chemical-society.csl', xml)).toBe(xml);
  });
});
