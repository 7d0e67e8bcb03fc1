import { existsSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compactStyle, vendor } from '../../bin/vendor-csl-styles';
import { styleEntry, styleIndexSchema } from './csl-style-index';

const publicDir = new URL('../../public/', import.meta.url);
const shipped = styleIndexSchema.parse(JSON.parse(readFileSync(new URL('csl-styles/index.json', publicDir), 'utf8')));
const entries = shipped.styles.map(styleEntry);
const byId = new Map(entries.map((entry) => [entry.id, entry]));

describe('the shipped CSL style set', () => {
  it('holds every style of the official repository, each independent one as a file and each dependent one by its parent', () => {
    const files = new Set(readdirSync(new URL('csl-styles/', publicDir)).filter((name) => name.endsWith('.csl')));
    const independent = entries.filter((entry) => !entry.dependent);
    expect(independent.length).toBeGreaterThan(2500);
    expect(entries.length - independent.length).toBeGreaterThan(7000);
    expect(files.size).toBe(independent.length);
    for (const entry of entries) expect(files.has(`${entry.file}.csl`), entry.id).toBe(true);
  });

  it('has the styles physicists and chemists ask for, searchable by field', () => {
    expect(byId.get('american-institute-of-physics')).toMatchObject({ title: 'AIP Style Manual 4th edition', dependent: false });
    expect(byId.get('physical-review-letters')).toMatchObject({ file: 'american-physics-society', dependent: true, fields: ['physics'] });
    expect(byId.get('nature')).toMatchObject({ title: 'Nature', dependent: false, locale: 'en-GB' });
    expect(byId.get('american-chemical-society')).toMatchObject({ shortTitle: 'American Chemical Society', fields: ['chemistry'] });
  });

  it('ships a locale file for every locale the index names, en-GB among them', () => {
    expect(shipped.locales).toContain('en-GB');
    for (const tag of shipped.locales) expect(existsSync(new URL(`csl-locales/locales-${tag}.xml`, publicDir)), tag).toBe(true);
  });

  it('ships the licence and the attribution with the styles and the locales', () => {
    for (const dir of ['csl-styles', 'csl-locales']) {
      expect(readFileSync(new URL(`${dir}/LICENSE.txt`, publicDir), 'utf8')).toContain('Attribution-ShareAlike 3.0 Unported');
      expect(readFileSync(new URL(`${dir}/README.md`, publicDir), 'utf8')).toContain('https://citationstyles.org/');
    }
    // Each file keeps its authors and rights.
    const aps = readFileSync(new URL('csl-styles/american-physics-society.csl', publicDir), 'utf8');
    expect(aps).toContain('<name>Richard Karnesky</name>');
    expect(aps).toContain('<rights license="http://creativecommons.org/licenses/by-sa/3.0/">');
  });
});

describe('bin/vendor-csl-styles', () => {
  const root = mkdtempSync(join(tmpdir(), 'csl-vendor-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const style = (id: string, info: string, attributes = '') =>
    `<?xml version="1.0" encoding="utf-8"?>\n<style xmlns="http://purl.org/net/xbiblio/csl" version="1.0"${attributes}>\n  <info>\n    <title>${id} title</title>\n    <id>http://www.zotero.org/styles/${id}</id>\n${info}\n  </info>\n  <citation>\n    <layout>\n      <text term="open-quote"> </text>\n    </layout>\n  </citation>\n</style>\n`;

  it('indexes independent and dependent styles, resolving each dependent one to its parent with its own locale', () => {
    const styles = join(root, 'styles');
    const locales = join(root, 'locales');
    const out = join(root, 'public');
    mkdirSync(join(styles, 'dependent'), { recursive: true });
    mkdirSync(locales);
    writeFileSync(
      join(styles, 'house.csl'),
      style(
        'house',
        '    <title-short>H</title-short>\n    <category citation-format="numeric"/>\n    <category field="physics"/>',
        ' default-locale="en-US"',
      ),
    );
    writeFileSync(
      join(styles, 'dependent', 'journal.csl'),
      style(
        'journal',
        '    <link href="http://www.zotero.org/styles/house" rel="independent-parent"/>\n    <category field="chemistry"/>',
        ' default-locale="de-DE"',
      ),
    );
    writeFileSync(
      join(styles, 'dependent', 'orphan.csl'),
      style('orphan', '    <link href="http://www.zotero.org/styles/gone" rel="independent-parent"/>'),
    );
    writeFileSync(join(locales, 'locales-de-DE.xml'), '<locale xml:lang="de-DE"/>');
    writeFileSync(join(locales, 'locales.json'), '{}');

    const { index, skipped } = vendor(styles, locales, out);
    expect(index.styles).toEqual([
      ['house', 'house title', 'H', 'physics', 'numeric', '', 'en-US'],
      ['journal', 'journal title', '', 'chemistry', 'numeric', 'house', 'de-DE'],
    ]);
    expect(skipped).toEqual(['orphan.csl']);
    expect(index.locales).toEqual(['de-DE']);
    expect(readdirSync(join(out, 'csl-styles')).sort()).toEqual(['house.csl', 'index.json']);
    // Indentation goes; text inside an element (a space term) stays.
    const written = readFileSync(join(out, 'csl-styles', 'house.csl'), 'utf8');
    expect(written).toContain('<layout><text term="open-quote"> </text></layout>');
    expect(written).toBe(compactStyle(readFileSync(join(styles, 'house.csl'), 'utf8')));
  });

  it('refuses a style whose file name is not its id', () => {
    const styles = join(root, 'misnamed');
    mkdirSync(join(styles, 'dependent'), { recursive: true });
    writeFileSync(join(styles, 'other.csl'), style('house', ''));
    expect(() => vendor(styles, join(root, 'locales'), join(root, 'public2'))).toThrow('other.csl: its id is house');
  });
});
