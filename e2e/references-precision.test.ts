/**
 * Found precision and recall on a labelled set of references, checked against a real store
 * served by the real server (the e2e store: the shipped real records of data/real beside
 * generated demo records, as `npm start` builds it). Half the references cite works the mirror holds, written as
 * people write them (APA, Vancouver, Chicago, IEEE, Nature, the physics journals' style,
 * BibTeX, RIS — by citation-js and the project's own writers), with and without their DOI;
 * the other half cite works it does not hold but that look like ones it does: the journal
 * articles of its datasets (same title and authors, another DOI and kind of work), held titles
 * under another DOI, near titles (another part, a word changed), made-up references on the
 * generated records' topics, and well-known works of other fields. Every "Found" must be the
 * cited work; nearly every held work must be found.
 */
import { readFileSync } from 'node:fs';
import { Cite, plugins } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-csl';
import { expect, inject, test } from 'vitest';
import { deploymentByKey, deployments, type ApiRecord } from '../src/deployments/registry';
import type { Deployment } from '../src/deployments/schema';
import { recordToCsl } from '../src/formats/csl';
import { knownValues } from '../src/formats/known-values';
import { relatedWorks, workAsRecord } from '../src/formats/related-works';
import { recordToRis } from '../src/formats/ris';
import { bareDoi } from '../src/formats/text';
import { generateRecords } from '../src/server/corpus/generate';
import { readUpstreamFiles } from '../src/server/import/files';
import { parseReferenceList } from '../src/app/references/parse-references';
import type { ParsedReference } from '../src/app/references/reference-input';
import { lookUpReferences, type ReferenceResult } from '../src/app/references/reference-lookup';
import { corpusSeed, corpusSize, litDownloadExtra } from './setup/global-setup';

const root = new URL('../', import.meta.url);
const realData = new URL('data/real/', root);
const dc1 = deploymentByKey('DC1')!;
const lit = deploymentByKey('LIT')!;

interface Labelled {
  readonly text: string;
  readonly style: string;
  /** The work the reference cites when the mirror holds it; undefined when it does not. */
  readonly held?: { readonly catalog: string; readonly id: string; readonly doi?: string };
  readonly note: string;
}

// ---- Formatting: citation-js with the shipped CSL styles, the project's RIS writer. ----

const cslConfig = plugins.config.get('@csl') as unknown as { styles: { add(name: string, xml: string): void } };
for (const [name, path] of [
  ['chicago-author-date', 'public/csl/chicago-author-date.csl'],
  ['ieee', 'public/csl/ieee.csl'],
  ['nature', 'public/csl-styles/nature.csl'],
  ['american-physics-society', 'public/csl-styles/american-physics-society.csl'],
] as const)
  cslConfig.styles.add(name, readFileSync(new URL(path, root), 'utf8'));

const styles = ['apa', 'vancouver', 'chicago-author-date', 'ieee', 'nature', 'american-physics-society', 'bibtex', 'ris'] as const;
type Style = (typeof styles)[number];

function write(deployment: Deployment, record: ApiRecord, style: Style, withDoi: boolean): string {
  if (style === 'ris') {
    const ris = recordToRis(deployment, record);
    return withDoi ? ris : ris.replace(/^(?:DO|UR|L3|L1|L2) {2}- .*\r?\n/gm, '');
  }
  const item: Record<string, unknown> = { ...recordToCsl(deployment, record), id: 'ref' };
  delete item.URL;
  if (!withDoi) delete item.DOI;
  const cite = new Cite(item);
  if (style === 'bibtex') return String(cite.format('bibtex')).trim();
  return String(cite.format('bibliography', { format: 'text', template: style, lang: 'en-US' }))
    .trim()
    .replace(/\s+/g, ' ');
}

// ---- The mirror: the e2e store (e2e/setup/global-setup.ts), real records and generated ones. ----

const readReal = (deployment: Deployment, files: readonly string[]) =>
  readUpstreamFiles(
    deployment,
    files.map((file) => new URL(file, realData).pathname),
  );

const realDc1 = readReal(dc1, ['dc-v1-geothermal-and-more-250.json', 'dc-v1-plasma-lab-209.json']);
const realLit = readReal(lit, ['lit-v1-datasets-40.json']);
/** The generated records the store holds: the generator is deterministic, so they are made again here. */
const generated = new Map(
  deployments.map((deployment) => [deployment.key, [...generateRecords(deployment, corpusSize, { seed: corpusSeed })]] as const),
);
/** The store's further literature: not cited here, but its titles make others ambiguous. */
const moreLit = [...generateRecords(lit, litDownloadExtra, { seed: corpusSeed, startId: 60_000_001 })];

// ---- The labelled set. ----

const doiOf = (record: ApiRecord) => {
  const doi = knownValues(record.doi)[0];
  return doi ? bareDoi(doi).toLowerCase() : undefined;
};
const titleOf = (record: ApiRecord) => knownValues(record.title)[0] ?? '';
const wordsOf = (title: string) => title.split(/\s+/).filter(Boolean);

/** Every k-th of a list, for a spread that does not depend on the files' order by topic. */
const spread = <T>(items: readonly T[], count: number) =>
  Array.from({ length: Math.min(count, items.length) }, (_, index) => items[Math.floor((index * items.length) / count)]!);

function labelledSet(): Labelled[] {
  const set: Labelled[] = [];
  const allTitles = new Map<string, number>();
  const allRecords = [...realDc1, ...realLit, ...[...generated.values()].flat(), ...moreLit].map((stored) => stored.record);
  for (const record of allRecords) allTitles.set(titleOf(record).toLowerCase(), (allTitles.get(titleOf(record).toLowerCase()) ?? 0) + 1);
  // A work the mirror holds once, by a named author, with a date: what a reference can cite unambiguously.
  const citable = (record: ApiRecord) =>
    allTitles.get(titleOf(record).toLowerCase()) === 1 &&
    wordsOf(titleOf(record)).length >= 3 &&
    knownValues(record.authors).length > 0 &&
    knownValues(record.publication_date).length > 0;
  let turn = 0;
  const nextStyle = () => styles[turn++ % styles.length]!;

  // Held: real records of both catalogs and generated ones, every style, half without their DOI.
  const held: [Deployment, ApiRecord][] = [
    ...spread(realDc1.map((stored) => stored.record).filter(citable), 70).map((record) => [dc1, record] as [Deployment, ApiRecord]),
    ...spread(realLit.map((stored) => stored.record).filter(citable), 16).map((record) => [lit, record] as [Deployment, ApiRecord]),
    ...(['LIT', 'DC1', 'PAT', 'MM', 'ENR'] as const).flatMap((key) =>
      spread(
        generated
          .get(key)!
          .map((stored) => stored.record)
          .filter(citable),
        5,
      ).map((record) => [deploymentByKey(key)!, record] as [Deployment, ApiRecord]),
    ),
  ];
  held.forEach(([deployment, record], index) => {
    const style = nextStyle();
    const withDoi = index % 2 === 0;
    set.push({
      text: write(deployment, record, style, withDoi),
      style,
      held: { catalog: deployment.key, id: record.repo_id, ...(doiOf(record) ? { doi: doiOf(record) } : {}) },
      note: `held ${deployment.key} ${record.repo_id}${withDoi ? ' with DOI' : ''}`,
    });
  });

  // Not held: the journal articles the datasets belong to (their curated related works).
  const articles = new Map<string, ApiRecord>();
  for (const { record } of realDc1) {
    for (const work of relatedWorks(record.related_identifiers)) {
      const article = workAsRecord(work, lit);
      if (article && !articles.has(work.identifier.toLowerCase()))
        articles.set(work.identifier.toLowerCase(), { ...article, product_type: 'Journal Article' });
    }
  }
  spread([...articles.values()], 60).forEach((article, index) => {
    const style = nextStyle();
    set.push({ text: write(lit, article, style, index % 2 === 0), style, note: `article ${article.repo_id}` });
  });

  // Not held: a held title under another DOI (another version, another deposit).
  spread(realDc1.map((stored) => stored.record).filter(citable), 12).forEach((record, index) => {
    const style = nextStyle();
    const other = { ...record, doi: `https://doi.org/10.5281/zenodo.${4_100_000 + index}` };
    set.push({ text: write(dc1, other, style, true), style, note: `another DOI for ${record.repo_id}` });
  });

  // Not held: near titles, same authors and year (another part, one word changed), no DOI.
  spread(realDc1.map((stored) => stored.record).filter(citable), 30)
    .slice(0, 12)
    .forEach((record, index) => {
      const words = wordsOf(titleOf(record));
      const title =
        index % 2 === 0
          ? `${titleOf(record)}: Part II`
          : [...words.slice(0, -1), words.at(-1) === 'simulations' ? 'experiments' : 'simulations'].join(' ');
      const style = nextStyle();
      set.push({ text: write(dc1, { ...record, title }, style, false), style, note: `near title of ${record.repo_id}` });
    });

  // Not held: made-up articles on the generated records' topics, by other people in other years.
  const madeUpAuthors = ['Smith, J.', 'Okafor, Chinedu', 'Lindqvist, A. M.', 'Tanaka, H.', 'García, R.'];
  (['LIT', 'DC1', 'PAT', 'ENR'] as const).forEach((key, catalogIndex) => {
    spread(
      generated
        .get(key)!
        .map((stored) => stored.record)
        .filter(citable),
      5,
    ).forEach((record, index) => {
      const year = Number(knownValues(record.publication_date)[0]!.slice(0, 4)) + 3;
      const made: ApiRecord = {
        repo_id: `made-${key}-${index}`,
        title: titleOf(record),
        authors: [madeUpAuthors[(catalogIndex + index) % madeUpAuthors.length]!],
        publication_date: `${year}-01-01T00:00:00Z`,
        journal_name: 'Physics of Plasmas',
        journal_volume: String(10 + index),
        journal_issue: '2',
        product_type: 'Journal Article',
      };
      const style = nextStyle();
      set.push({ text: write(lit, made, style, false), style, note: `made up on ${key} ${record.repo_id}` });
    });
  });

  // Not held: well-known works of other fields, as people paste them.
  set.push(
    ...[
      'LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521(7553), 436–444. https://doi.org/10.1038/nature14539',
      'Kuhn, Thomas S. The Structure of Scientific Revolutions. Chicago: University of Chicago Press, 1962.',
      'Lowry OH, Rosebrough NJ, Farr AL, Randall RJ. Protein measurement with the Folin phenol reagent. J Biol Chem. 1951;193(1):265-75.',
      '[4] K. He, X. Zhang, S. Ren, and J. Sun, “Deep residual learning for image recognition,” in Proc. IEEE CVPR, 2016, pp. 770–778.',
      'Watson, J. D. & Crick, F. H. C. Molecular structure of nucleic acids. Nature 171, 737–738 (1953).',
      'A. Einstein, B. Podolsky, and N. Rosen, Can quantum-mechanical description of physical reality be considered complete?, Phys. Rev. 47, 777 (1935).',
      'Shannon, C. E. (1948). A mathematical theory of communication. Bell System Technical Journal, 27(3), 379–423.',
      'Smith J. Effect of turbulence on toroidal plasma. Phys Plasmas. 2013;20:012345.',
      'Wesson J. Tokamaks. 4th ed. Oxford: Oxford University Press; 2011.',
      'Freidberg, J. P. (2007). Plasma physics and fusion energy. Cambridge University Press.',
    ].map((text) => ({ text, style: 'hand-written', note: 'well-known work' })),
  );
  return set;
}

// ---- The measurement. ----

const sameWork = (record: ApiRecord, catalog: string, held: NonNullable<Labelled['held']>) =>
  (catalog === held.catalog && record.repo_id === held.id) || (held.doi !== undefined && doiOf(record) === held.doi);

test('every Found is the cited work (precision ≥ 99%) and nearly every held work is found (recall ≥ 95%)', async () => {
  const started = performance.now();
  const set = labelledSet();
  const written = performance.now();
  const heldCount = set.filter((entry) => entry.held).length;
  expect(set.length).toBeGreaterThanOrEqual(200);
  expect(heldCount).toBeGreaterThanOrEqual(set.length * 0.4);
  expect(set.length - heldCount).toBeGreaterThanOrEqual(set.length * 0.4);

  const references: ParsedReference[] = [];
  for (const entry of set) references.push((await parseReferenceList(entry.text)).references[0]!);
  const parsed = performance.now();
  const results: ReferenceResult[] = [];
  const catalogs = deployments.map((deployment) => ({
    deployment,
    baseUrl: `${inject('baseUrl')}${deployment.basePath}`,
    auth: undefined,
  }));
  await lookUpReferences(references, catalogs, {
    signal: new AbortController().signal,
    onResult: (index, result) => void (results[index] = result),
  });
  const seconds = (from: number, to: number) => ((to - from) / 1000).toFixed(1);
  console.log(
    `Written in ${seconds(started, written)} s, read in ${seconds(written, parsed)} s, looked up in ${seconds(parsed, performance.now())} s.`,
  );

  let found = 0;
  let correct = 0;
  let heldFound = 0;
  const wrong: string[] = [];
  const missed: string[] = [];
  set.forEach((entry, index) => {
    const result = results[index]!;
    const founds = result.matches.filter((match) => match.assessment.verdict === 'found');
    found += founds.length;
    for (const match of founds) {
      if (entry.held && sameWork(match.record, match.catalog, entry.held)) correct += 1;
      else wrong.push(`${entry.note} [${entry.style}] → ${match.catalog} ${match.record.repo_id}: ${entry.text}`);
    }
    if (entry.held) {
      if (founds.some((match) => sameWork(match.record, match.catalog, entry.held!))) heldFound += 1;
      else
        missed.push(
          `${entry.note} [${entry.style}] → ${result.matches[0]?.assessment.verdict ?? 'nothing'} ${JSON.stringify(result.matches[0]?.assessment.facts ?? result.reference.problem ?? '')}: ${entry.text}`,
        );
    }
  });
  const precision = found === 0 ? 1 : correct / found;
  const recall = heldFound / heldCount;
  console.log(
    `Labelled references: ${set.length} (${heldCount} held). Found ${found}, of which correct ${correct}: precision ${(precision * 100).toFixed(1)}%. Held works found: ${heldFound} of ${heldCount}: recall ${(recall * 100).toFixed(1)}%.`,
  );
  if (wrong.length) console.log(`Found, but another work:\n${wrong.join('\n')}`);
  if (missed.length) console.log(`Held, not found:\n${missed.join('\n')}`);
  expect(precision).toBeGreaterThanOrEqual(0.99);
  expect(recall).toBeGreaterThanOrEqual(0.95);
}, 300_000);
