import { describe, expect, test } from 'vitest';
import { parseReferenceList, risFacts } from './parse-references';
import { readReferences } from './reference-reader';
import { checkText, maxReferencesPerRun, splitReferences, UnreadableInputError } from './reference-input';
import { findDoi, formattedFacts, significantWords } from './reference-text';

/**
 * Reference lists as they appear in real papers' reference sections, in the styles people
 * paste from: the facts the lookup needs must come out of each.
 */

describe('formatted references, style by style', () => {
  test('APA, with DOIs as resolver URLs', () => {
    expect(
      formattedFacts(
        'LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521(7553), 436–444. https://doi.org/10.1038/nature14539',
      ),
    ).toEqual({
      doi: '10.1038/nature14539',
      year: 2015,
      surnames: ['LeCun', 'Bengio', 'Hinton'],
      title: 'Deep learning',
    });
    const fair = formattedFacts(
      'Wilkinson, M. D., Dumontier, M., Aalbersberg, I. J., Appleton, G., Axton, M., Baak, A., … Mons, B. (2016). The FAIR Guiding Principles for scientific data management and stewardship. Scientific Data, 3, 160018. https://doi.org/10.1038/sdata.2016.18',
    );
    expect(fair).toMatchObject({
      doi: '10.1038/sdata.2016.18',
      year: 2016,
      title: 'The FAIR Guiding Principles for scientific data management and stewardship',
    });
    expect(fair.surnames.slice(0, 3)).toEqual(['Wilkinson', 'Dumontier', 'Aalbersberg']);
    expect(
      formattedFacts('Ioannidis, J. P. A. (2005). Why most published research findings are false. PLoS Medicine, 2(8), e124.'),
    ).toMatchObject({
      year: 2005,
      surnames: ['Ioannidis'],
      title: 'Why most published research findings are false',
    });
  });

  test('Chicago, notes and bibliography: quoted article titles, unquoted book titles', () => {
    expect(
      formattedFacts(
        'Watson, J. D., and F. H. C. Crick. “Molecular Structure of Nucleic Acids: A Structure for Deoxyribose Nucleic Acid.” Nature 171, no. 4356 (1953): 737–38.',
      ),
    ).toMatchObject({ year: 1953, title: 'Molecular Structure of Nucleic Acids: A Structure for Deoxyribose Nucleic Acid' });
    expect(
      formattedFacts('Kuhn, Thomas S. The Structure of Scientific Revolutions. Chicago: University of Chicago Press, 1962.'),
    ).toMatchObject({
      year: 1962,
      surnames: ['Kuhn', 'Thomas'],
      title: 'The Structure of Scientific Revolutions',
    });
  });

  test('Harvard: the year in parentheses without a full stop', () => {
    expect(
      formattedFacts('Shannon, C.E. (1948) A mathematical theory of communication. Bell System Technical Journal, 27(3), pp. 379–423.'),
    ).toMatchObject({
      year: 1948,
      surnames: ['Shannon'],
      title: 'A mathematical theory of communication',
    });
  });

  test('Vancouver, numbered, with a DOI holding parentheses', () => {
    expect(
      formattedFacts(
        '1. Lowry OH, Rosebrough NJ, Farr AL, Randall RJ. Protein measurement with the Folin phenol reagent. J Biol Chem. 1951;193(1):265-75.',
      ),
    ).toEqual({
      year: 1951,
      surnames: ['Lowry', 'Rosebrough', 'Farr', 'Randall'],
      title: 'Protein measurement with the Folin phenol reagent',
    });
    expect(
      formattedFacts(
        '2. Altschul SF, Gish W, Miller W, Myers EW, Lipman DJ. Basic local alignment search tool. J Mol Biol. 1990;215(3):403-10. doi:10.1016/S0022-2836(05)80360-2.',
      ),
    ).toEqual({
      doi: '10.1016/S0022-2836(05)80360-2',
      year: 1990,
      surnames: ['Altschul', 'Gish', 'Miller', 'Myers', 'Lipman'],
      title: 'Basic local alignment search tool',
    });
  });

  test('IEEE: initials first, quoted titles, et al.', () => {
    expect(
      formattedFacts(
        '[1] K. He, X. Zhang, S. Ren, and J. Sun, "Deep residual learning for image recognition," in Proc. IEEE Conf. Comput. Vis. Pattern Recognit. (CVPR), 2016, pp. 770–778.',
      ),
    ).toEqual({
      year: 2016,
      surnames: ['He', 'Zhang', 'Ren', 'Sun'],
      title: 'Deep residual learning for image recognition',
    });
    expect(
      formattedFacts(
        '[2] A. Vaswani et al., "Attention is all you need," in Advances in Neural Information Processing Systems, 2017, pp. 5998–6008.',
      ),
    ).toMatchObject({
      year: 2017,
      surnames: ['Vaswani'],
      title: 'Attention is all you need',
    });
  });

  test('Nature and physics styles: the year last; a physics reference without a title', () => {
    expect(
      formattedFacts('1. Jumper, J. et al. Highly accurate protein structure prediction with AlphaFold. Nature 596, 583–589 (2021).'),
    ).toEqual({
      year: 2021,
      surnames: ['Jumper'],
      title: 'Highly accurate protein structure prediction with AlphaFold',
    });
    expect(
      formattedFacts('Novoselov, K. S. et al. Electric field effect in atomically thin carbon films. Science 306, 666–669 (2004).'),
    ).toMatchObject({
      year: 2004,
      title: 'Electric field effect in atomically thin carbon films',
    });
    const epr = formattedFacts('[3] A. Einstein, B. Podolsky, and N. Rosen, Phys. Rev. 47, 777 (1935).');
    expect(epr).toMatchObject({ year: 1935, surnames: ['Einstein', 'Podolsky', 'Rosen'] });
    expect(significantWords(epr.title ?? '').length).toBeLessThan(2);
  });

  test('another script: a Russian book reference', () => {
    expect(formattedFacts('Ландау Л. Д., Лифшиц Е. М. Теоретическая физика. Т. 1. Механика. М.: Наука, 1988.')).toMatchObject({
      year: 1988,
      surnames: ['Ландау', 'Лифшиц'],
      title: 'Теоретическая физика',
    });
  });
});

describe('author lists, years and abbreviations wherever references put them', () => {
  test('"Surname, Given; …" lists read like their APA form, the year after a long list', () => {
    const apa = formattedFacts('Bolduc, B., Wood-Charlson, E., & Dehal, P. (2020). Viral Annotation Pipeline in KBase.');
    const semicolons = formattedFacts(
      'Bolduc, Benjamin; Wood-Charlson, Elisha; Dehal, Paramvir (2020). Viral Annotation Pipeline in KBase.',
    );
    expect(semicolons).toEqual(apa);
    expect(semicolons).toEqual({ year: 2020, surnames: ['Bolduc', 'Wood-Charlson', 'Dehal'], title: 'Viral Annotation Pipeline in KBase' });
    expect(
      formattedFacts(
        'Smith, Anne M.; van der Berg, Jan; Ng, W. (2019): Measured fluxes of the eastern boundary current. Ocean Data Archive. https://doi.org/10.1234/odc.5',
      ),
    ).toMatchObject({ year: 2019, surnames: ['Smith', 'Berg', 'Ng'], title: 'Measured fluxes of the eastern boundary current' });
  });

  test('"(year)" late in a reference still marks the title after it', () => {
    expect(
      formattedFacts(
        'Abbott, B. P., Abbott, R., Abbott, T. D., Abernathy, M. R., Acernese, F., Ackley, K., Adams, C., Adams, T., Addesso, P., Adhikari, R. X., and others (2016). Observation of gravitational waves from a binary black hole merger. Phys. Rev. Lett.',
      ),
    ).toMatchObject({ year: 2016, title: 'Observation of gravitational waves from a binary black hole merger' });
  });

  test('abbreviations inside a title do not end it', () => {
    const vancouver = formattedFacts('4. Kim H, Park J. Bacillus sp. isolated from soil. J Microbiol. 2018;56(2):1-9.');
    expect(vancouver).toMatchObject({ year: 2018, surnames: ['Kim', 'Park'], title: 'Bacillus sp. isolated from soil' });
    expect(significantWords(vancouver.title!).length).toBeGreaterThanOrEqual(2);
    expect(formattedFacts('Lee K, Cho S. Genome of Streptomyces sp. PAO1 and its relatives. Genome Announc. 2015;3:e1-2.').title).toBe(
      'Genome of Streptomyces sp. PAO1 and its relatives',
    );
    expect(
      formattedFacts('Brown T. Reply to comment on the analysis of Phys. Rev. Lett. data on muon decay. Phys Rev D. 2012;85:1-3.').title,
    ).toBe('Reply to comment on the analysis of Phys. Rev. Lett. data on muon decay');
    expect(formattedFacts('Ng A, Ho B. Extending the model of Smith et al. to porous media. J Fluid Mech. 2011;1:2-3.').title).toBe(
      'Extending the model of Smith et al. to porous media',
    );
    // A physics reference without a title still has none: its journal is not one.
    expect(formattedFacts('[3] A. Einstein, B. Podolsky, and N. Rosen, Phys. Rev. 47, 777 (1935).').title).toBe('Phys');
  });
});

describe('a reference section pasted whole (Jumper et al. 2021, Nature, references 1–5)', () => {
  const section = `1. Thompson, M. C., Yeates, T. O. & Rodriguez, J. A. Advances in methods for atomic resolution macromolecular structure determination. F1000Res. 9, 667 (2020).
2. Bai, X.-C., McMullan, G. & Scheres, S. H. W. How cryo-EM is revolutionizing structural biology. Trends Biochem. Sci. 40, 49–57 (2015).
3. Jaskolski, M., Dauter, Z. & Wlodawer, A. A brief history of macromolecular crystallography, illustrated by a family tree and its Nobel fruits. FEBS J. 281,
3985–4009 (2014).
4. Wüthrich, K. The way to NMR structures of proteins. Nat. Struct. Biol. 8, 923–925 (2001).
5. Anfinsen, C. B. Principles that govern the folding of protein chains. Science 181, 223–230 (1973).`;

  test('five references, each with its first author, year and title', async () => {
    const { references } = await parseReferenceList(section);
    expect(references.map(({ surnames, year, title }) => [surnames[0], year, title])).toEqual([
      ['Thompson', 2020, 'Advances in methods for atomic resolution macromolecular structure determination'],
      ['Bai', 2015, 'How cryo-EM is revolutionizing structural biology'],
      ['Jaskolski', 2014, 'A brief history of macromolecular crystallography, illustrated by a family tree and its Nobel fruits'],
      ['Wüthrich', 2001, 'The way to NMR structures of proteins'],
      ['Anfinsen', 1973, 'Principles that govern the folding of protein chains'],
    ]);
  });
});

describe('DOIs in every form', () => {
  test.each([
    ['10.1038/nature14539', '10.1038/nature14539'],
    ['doi:10.1038/nature14539', '10.1038/nature14539'],
    ['https://doi.org/10.1038/nature14539.', '10.1038/nature14539'],
    ['(see http://dx.doi.org/10.1016/S0022-2836(05)80360-2)', '10.1016/S0022-2836(05)80360-2'],
  ])('%s', (text, doi) => expect(findDoi(text)).toBe(doi));
});

const bibtexEntry = `@article{Wilkinson2016,
  author = {Wilkinson, Mark D. and Dumontier, Michel and Aalbersberg, IJsbrand Jan},
  title = {The {FAIR} Guiding Principles for scientific data management and stewardship},
  journal = {Scientific Data},
  volume = {3},
  pages = {160018},
  year = {2016},
  doi = {10.1038/sdata.2016.18}
}`;

const risRecord = `TY  - JOUR
AU  - LeCun, Yann
AU  - Bengio, Yoshua
AU  - Hinton, Geoffrey
TI  - Deep learning
JO  - Nature
VL  - 521
SP  - 436
EP  - 444
PY  - 2015
DO  - 10.1038/nature14539
ER  - `;

describe('RIS', () => {
  test('title, authors, year and DOI from their tags', () => {
    expect(risFacts(risRecord)).toEqual({
      surnames: ['LeCun', 'Bengio', 'Hinton'],
      title: 'Deep learning',
      year: 2015,
      doi: '10.1038/nature14539',
    });
  });
});

describe('a mixed paste cut into references', () => {
  const mixed = [
    '10.1038/nature14539',
    'doi:10.1371/journal.pmed.0020124',
    '',
    'LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521(7553),',
    '    436–444.',
    'Ioannidis, J. P. A. (2005). Why most published research findings are false. PLoS Medicine, 2(8), e124.',
    '',
    '[1] K. He, X. Zhang, S. Ren, and J. Sun, "Deep residual learning for image recognition," in Proc. IEEE Conf.',
    'Comput. Vis. Pattern Recognit. (CVPR), 2016, pp. 770–778.',
    '[2] A. Vaswani et al., "Attention is all you need," in Advances in Neural Information Processing Systems, 2017.',
    '',
    bibtexEntry,
    '@comment{jabref-meta: databaseType:bibtex;}',
    risRecord,
    'https://doi.org/10.1038/sdata.2016.18',
  ].join('\n');

  test('each reference once, of its kind, wrapped lines joined', () => {
    const { blocks, total } = splitReferences(mixed);
    expect(blocks.map((block) => block.kind)).toEqual([
      'doi',
      'doi',
      'formatted',
      'formatted',
      'formatted',
      'formatted',
      'bibtex',
      'ris',
      'doi',
    ]);
    expect(total).toBe(9);
    expect(blocks[2]!.text).toBe('LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521(7553), 436–444.');
    expect(blocks[4]!.text).toMatch(/^\[1\] K\. He.*770–778\.$/);
  });

  test('read in full: BibTeX by citation-js, every reference with something to look up', async () => {
    const { references, leftOut } = await parseReferenceList(mixed);
    expect(leftOut).toBe(0);
    expect(references.map((reference) => reference.problem)).toEqual(references.map(() => undefined));
    expect(references[6]).toMatchObject({
      kind: 'bibtex',
      doi: '10.1038/sdata.2016.18',
      year: 2016,
      title: 'The FAIR Guiding Principles for scientific data management and stewardship',
      surnames: ['Wilkinson', 'Dumontier', 'Aalbersberg'],
    });
    expect(references.map((reference) => reference.doi)).toEqual([
      '10.1038/nature14539',
      '10.1371/journal.pmed.0020124',
      undefined,
      undefined,
      undefined,
      undefined,
      '10.1038/sdata.2016.18',
      '10.1038/nature14539',
      '10.1038/sdata.2016.18',
    ]);
  });

  test('one reference per line, unnumbered, each ending a line', () => {
    const lines = [
      'Lowry OH, Rosebrough NJ, Farr AL, Randall RJ. Protein measurement with the Folin phenol reagent. J Biol Chem. 1951;193(1):265-75.',
      'Altschul SF, Gish W, Miller W, Myers EW, Lipman DJ. Basic local alignment search tool. J Mol Biol. 1990;215(3):403-10.',
      'Shannon, C.E. (1948) A mathematical theory of communication. Bell System Technical Journal, 27(3), pp. 379–423.',
    ];
    expect(splitReferences(lines.join('\n')).blocks.map((block) => block.text)).toEqual(lines);
  });
});

describe('bad input', () => {
  test('binary junk is refused with a reason', () => {
    const junk = String.fromCharCode(...Array.from({ length: 4000 }, (_, index) => (index * 7919) % 256));
    expect(() => checkText(junk)).toThrow(UnreadableInputError);
    expect(() => checkText('%PDF-1.7\n\u0000\u0001binary')).toThrow(/not text/);
  });

  test('an empty paste has no references', async () => {
    expect(await parseReferenceList('  \n\n \t')).toEqual({ references: [], leftOut: 0 });
  });

  test('10,000 lines: the first references of a run are read, the rest counted', async () => {
    const line = (n: number) => `${n}. Author A, Writer B. Title number ${n} of a long list of works. J Test. 2001;${n}:1-2.`;
    const { references, leftOut } = await parseReferenceList(Array.from({ length: 10_000 }, (_, n) => line(n + 1)).join('\n'));
    expect(references).toHaveLength(maxReferencesPerRun);
    expect(leftOut).toBe(10_000 - maxReferencesPerRun);
    expect(references[0]!.title).toBe('Title number 1 of a long list of works');
  });

  test('a 5 MB BibTeX file is cut into entries and only a run’s worth is read', async () => {
    const entries = Array.from({ length: 20_000 }, (_, n) =>
      bibtexEntry.replace('Wilkinson2016', `key${n}`).replace('pages = {160018}', `pages = {${n}}, note = {${'x'.repeat(20)}}`),
    );
    const text = entries.join('\n\n');
    expect(text.length).toBeGreaterThan(5_000_000);
    const { references, leftOut } = await parseReferenceList(text);
    expect(references).toHaveLength(maxReferencesPerRun);
    expect(leftOut).toBe(20_000 - maxReferencesPerRun);
  });

  test('an unterminated BibTeX entry is one reference, its DOI still found', async () => {
    const { references } = await parseReferenceList('@article{broken,\n  title = {Half an entry\n  doi = {10.1038/nature14539}\n');
    expect(references).toHaveLength(1);
    expect(references[0]!.doi).toBe('10.1038/nature14539');
  });

  test('a "DOI" longer than any DOI is not looked up, and the reference says why', async () => {
    const { references } = await parseReferenceList(`10.1234/${'a'.repeat(100_000)})`);
    expect(references).toHaveLength(1);
    expect(references[0]!.doi).toBeUndefined();
    expect(references[0]!.problem).toMatch(/^What looks like a DOI here is 100,008 characters long, and a DOI is at most 300/);
    const [titled] = (await parseReferenceList(`Shannon, C.E. (1948) A mathematical theory of communication. 10.1234/${'a'.repeat(400)}`))
      .references;
    expect(titled).toMatchObject({ title: 'A mathematical theory of communication' });
    expect(titled!.doi).toBeUndefined();
    expect(titled!.problem).toBeUndefined();
  });

  test('a stopped run ends with an AbortError', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      readReferences('Shannon, C.E. (1948) A mathematical theory of communication. Bell Syst Tech J.', controller.signal),
    ).rejects.toThrow(/abort/i);
  });
});
