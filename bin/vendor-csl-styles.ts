/**
 * Regenerates the shipped CSL style set from checkouts of the official repositories:
 *
 *   git clone https://github.com/citation-style-language/styles
 *   git clone https://github.com/citation-style-language/locales
 *   npx tsx bin/vendor-csl-styles.ts styles locales
 *
 * Writes `public/csl-styles/` (index.json and one file per independent style, whitespace
 * between elements dropped, everything else, the <info> block with its authors and rights
 * included, as published) and `public/csl-locales/` (every locale file, as published).
 * Dependent styles get no file: their index row names their independent parent.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { styleIndexSchema, type StyleIndex, type StyleRow } from '../src/formats/csl-style-index';

interface StyleInfo {
  readonly id: string;
  readonly title: string;
  readonly shortTitle: string;
  readonly fields: readonly string[];
  readonly format: string;
  readonly parent: string;
  readonly locale: string;
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['link', 'category'].includes(name) });

const text = (value: unknown): string =>
  typeof value === 'string' ? value.trim() : value && typeof value === 'object' && '#text' in value ? String(value['#text']).trim() : '';

const lastSegment = (uri: string) => uri.replace(/\/+$/, '').split('/').pop() ?? '';

/** What the index needs from a style file's root and <info>. */
export function readStyleInfo(xml: string, fileName: string): StyleInfo {
  const style = (parser.parse(xml) as { style?: Record<string, unknown> }).style;
  const info = style?.info as Record<string, unknown> | undefined;
  if (!style || !info) throw new Error(`${fileName}: no <style><info>`);
  const links = (info.link ?? []) as { href?: string; rel?: string }[];
  const categories = (info.category ?? []) as { field?: string; 'citation-format'?: string }[];
  const id = lastSegment(text(info.id));
  if (id !== basename(fileName, '.csl')) throw new Error(`${fileName}: its id is ${id}`);
  return {
    id,
    title: text(info.title),
    shortTitle: text(info['title-short']),
    fields: categories.flatMap((category) => (category.field ? [category.field] : [])),
    format: categories.find((category) => category['citation-format'])?.['citation-format'] ?? '',
    parent: lastSegment(links.find((link) => link.rel === 'independent-parent')?.href ?? ''),
    locale: typeof style['default-locale'] === 'string' ? style['default-locale'] : '',
  };
}

/** Whitespace between elements (a line break and indentation) carries nothing in CSL. */
export const compactStyle = (xml: string) => xml.replace(/>[ \t]*\r?\n\s*</g, '><').trim() + '\n';

const cslFiles = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.csl'))
    .sort();

function commitOf(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

const row = (info: StyleInfo, parent = ''): StyleRow => [
  info.id,
  info.title,
  info.shortTitle,
  info.fields.join(' '),
  info.format,
  parent,
  info.locale,
];

export function vendor(stylesDir: string, localesDir: string, publicDir: string): { index: StyleIndex; skipped: string[] } {
  const stylesOut = join(publicDir, 'csl-styles');
  const localesOut = join(publicDir, 'csl-locales');
  for (const dir of [stylesOut, localesOut]) {
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) if (/\.(csl|xml)$/.test(name) || name === 'index.json') rmSync(join(dir, name));
  }

  const rows: StyleRow[] = [];
  const independent = new Map<string, StyleInfo>();
  for (const name of cslFiles(stylesDir)) {
    const xml = readFileSync(join(stylesDir, name), 'utf8');
    const info = readStyleInfo(xml, name);
    if (info.parent) throw new Error(`${name}: an independent style names a parent`);
    independent.set(info.id, info);
    rows.push(row(info));
    writeFileSync(join(stylesOut, name), compactStyle(xml));
  }
  const skipped: string[] = [];
  const dependentDir = join(stylesDir, 'dependent');
  for (const name of cslFiles(dependentDir)) {
    const info = readStyleInfo(readFileSync(join(dependentDir, name), 'utf8'), name);
    const parent = independent.get(info.parent);
    if (!parent || independent.has(info.id)) {
      skipped.push(name);
      continue;
    }
    // A dependent style without a locale of its own cites in its parent's.
    rows.push(row({ ...info, locale: info.locale || parent.locale, format: info.format || parent.format }, parent.id));
  }

  const locales: string[] = [];
  for (const name of readdirSync(localesDir).sort()) {
    const tag = /^locales-([A-Za-z-]+)\.xml$/.exec(name)?.[1];
    if (!tag) continue;
    locales.push(tag);
    writeFileSync(join(localesOut, name), readFileSync(join(localesDir, name)));
  }

  rows.sort((a, b) => a[1].localeCompare(b[1], 'en') || a[0].localeCompare(b[0]));
  const index = styleIndexSchema.parse({ source: { styles: commitOf(stylesDir), locales: commitOf(localesDir) }, locales, styles: rows });
  writeFileSync(join(stylesOut, 'index.json'), JSON.stringify(index) + '\n');
  return { index, skipped };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [stylesDir, localesDir] = process.argv.slice(2);
  if (!stylesDir || !localesDir) {
    console.error('usage: npx tsx bin/vendor-csl-styles.ts <styles checkout> <locales checkout>');
    process.exit(2);
  }
  const publicDir = fileURLToPath(new URL('../public', import.meta.url));
  const { index, skipped } = vendor(stylesDir, localesDir, publicDir);
  const dependent = index.styles.filter((style) => style[5]).length;
  console.log(
    `${index.styles.length - dependent} independent and ${dependent} dependent styles, ${index.locales.length} locales` +
      (skipped.length ? `; skipped (parent missing): ${skipped.join(', ')}` : ''),
  );
}
