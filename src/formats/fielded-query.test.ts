import { describe, expect, it } from 'vitest';
import { deploymentByKey, deployments } from '../deployments/registry';
import { compileQueryFields } from '../deployments/query-fields';
import { searchModel } from '../deployments/search-model';
import { boxCriteria, problemMessage } from './fielded-criteria';
import { hasSearchableWords, parseFieldedQuery } from './fielded-query';
import { editDistance } from './nearest';

const lit = deploymentByKey('LIT')!;
const dc0 = deploymentByKey('DC0')!;
const dc1 = deploymentByKey('DC1')!;
const withExtensions = { extensions: true };
const box = (input: string, deployment = lit, options = withExtensions) => boxCriteria(deployment, input, options);
const messages = (input: string, deployment = lit, options = withExtensions) =>
  box(input, deployment, options).problems.map((problem) => problemMessage(deployment, problem));

describe('fielded syntax in the search box', () => {
  it('turns fields into the deployment’s parameters and keeps the free words', () => {
    expect(box('plasma author:Fredrickson year:2010-2015')).toEqual({
      words: 'plasma',
      params: { author: 'Fredrickson', publication_date_start: '01/01/2010', publication_date_end: '12/31/2015' },
      problems: [],
    });
    expect(box('title:"solar cell" subject:energy doi:10.1/x identifier:DE-AC02 type:Thesis/Dissertation').params).toEqual({
      title: '"solar cell"',
      subject: 'energy',
      doi: '10.1/x',
      identifier: 'DE-AC02',
      product_type: 'Thesis/Dissertation',
    });
  });

  it('writes dates in the deployment’s own format; one year is its whole range', () => {
    expect(box('year:2012', dc0).params).toEqual({ publication_date_start: '01-01-2012', publication_date_end: '12-31-2012' });
    expect(box('year:2010-').params).toEqual({ publication_date_start: '01/01/2010' });
    expect(box('year:..2015').params).toEqual({ publication_date_end: '12/31/2015' });
    expect(box('published:2010–2015').params).toEqual({ publication_date_start: '01/01/2010', publication_date_end: '12/31/2015' });
    expect(messages('year:2015-2010')).toEqual(['year: takes a year or a range of years, for example year:2012 or year:2010-2015.']);
    expect(messages('year:20102015')).toHaveLength(1);
    expect(messages('year:soon')).toHaveLength(1);
  });

  it('reads names in any case, by label and by alias; exact values lose their quotes', () => {
    expect(box('Authors:Smith Country_of_publication:"United States" SITE_CODE:PPPL').params).toEqual({
      author: 'Smith',
      country: 'United States',
      site_ownership_code: 'PPPL',
    });
    expect(box('research_organisation:"Argonne National Laboratory"').params).toEqual({ research_org: '"Argonne National Laboratory"' });
  });

  it('offers product type only where the server takes the extension', () => {
    expect(box('type:Book').params).toEqual({ product_type: 'Book' });
    expect(messages('type:Book', lit, { extensions: false })).toEqual(['Research literature v1 cannot search by Product type (type:).']);
  });

  it('names the nearest field for a misspelt one instead of searching for it', () => {
    expect(messages('autor:Smith')).toEqual(['“autor:” is not a search field. Did you mean author:?']);
    expect(messages('titel:plasma')).toEqual(['“titel:” is not a search field. Did you mean title:?']);
  });

  it('says when the field belongs to other deployments only', () => {
    expect(messages('mime_type:video/mp4', dc0)).toEqual([`${dc0.name} ${dc0.version} cannot search by Media type (mime_type:).`]);
    expect(messages('subject:energy', dc0, { extensions: false })[0]).toContain('cannot search by Subject (subject:)');
  });

  it('reads doi: as the identifier search where the deployment has no DOI parameter, and names it', () => {
    expect(box('doi:10.15121/2368548', dc1).params).toEqual({ identifier: '10.15121/2368548' });
    expect(box('doi:10.15121/2368548', lit).params).toEqual({ doi: '10.15121/2368548' });
    const identifier = compileQueryFields(dc1).find((field) => field.label === 'Identifier')!;
    expect(identifier.name).toBe('identifier');
    expect(identifier.standsFor).toEqual(['doi']);
  });

  it('searches subjects by the subject facet’s parameter where the deployment has no subject parameter', () => {
    expect(box('keyword:Plasma', dc0).params).toEqual({ subject_term: 'Plasma' });
    expect(box('subject:tokamaks', dc0).params).toEqual({ subject_term: 'tokamaks' });
  });

  it('reads every field name of one catalog in every catalog that has a field of the same label', () => {
    const byKey = new Map(deployments.map((deployment) => [deployment.key, compileQueryFields(deployment)]));
    for (const [key, fields] of byKey)
      for (const field of fields)
        for (const name of field.names)
          for (const [otherKey, others] of byKey)
            if (others.some((each) => each.label === field.label))
              expect(
                others.some((each) => each.names.includes(name)),
                `${name}: of ${key} in ${otherKey}`,
              ).toBe(true);
    expect(box('research_orgs:PPPL', lit).params).toEqual({ research_org: 'PPPL' });
    expect(box('research_org:PPPL', deploymentByKey('MM')).params).toEqual({ research_orgs: 'PPPL' });
    expect(box('subject_term:tokamaks', lit).params).toEqual({ subject: 'tokamaks' });
  });

  it('leaves colons inside words, addresses and times alone', () => {
    for (const input of [
      'http://example.org/a:b',
      'https://doi.org/10.1/x',
      'meeting 10:30',
      'ratio:2',
      'a:b:c',
      'C:\\data',
      'x:',
      ':title',
    ]) {
      const parsed = box(input);
      expect(parsed.params, input).toEqual({});
      expect(parsed.words, input).toBe(input);
      expect(parsed.problems, input).toEqual([]);
    }
    // A DOI keeps its own colons and slashes.
    expect(box('doi:10.1002/(SICI)1097-4636:x').params).toEqual({ doi: '10.1002/(SICI)1097-4636:x' });
  });

  it('ignores field-like text inside a phrase', () => {
    expect(box('"author:Smith wrote" energy')).toEqual({ words: '"author:Smith wrote" energy', params: {}, problems: [] });
  });

  it('closes an unbalanced quote at the end, like the query language', () => {
    expect(box('plasma title:"solar cell').params).toEqual({ title: '"solar cell"' });
    expect(box('title:"solar cell" "open phrase').words).toBe('"open phrase');
  });

  it('reads a known field’s value after spaces following the colon', () => {
    expect(box('title: plasma')).toEqual({ words: '', params: { title: 'plasma' }, problems: [] });
    expect(box('solar author:   "Jones, A" cell')).toEqual({ words: 'solar cell', params: { author: '"Jones, A"' }, problems: [] });
    expect(box('ratio: 2').words).toBe('ratio: 2');
  });

  it('reports empty values', () => {
    expect(messages('author: ')).toEqual(['author: needs a value after the colon, for example author:"two words".']);
    expect(messages('title:""')).toHaveLength(1);
    expect(messages('title:')).toHaveLength(1);
  });

  it('narrows together when a text field repeats; a one-value field must agree', () => {
    expect(box('author:Smith author:"Jones, A"').params).toEqual({ author: 'Smith "Jones, A"' });
    expect(box('language:English language:english').params).toEqual({ language: 'English' });
    expect(messages('language:English language:French')).toEqual(['language: takes one value; “English” and “French” cannot both match.']);
    expect(messages('year:2010 year:2012')).toHaveLength(1);
  });

  it('leaves out a text field’s value with - or NOT; other fields cannot', () => {
    expect(box('plasma -author:Smith').params).toEqual({ author: '-Smith' });
    expect(box('plasma NOT title:"solar cell"')).toEqual({ words: 'plasma', params: { title: '-"solar cell"' }, problems: [] });
    expect(messages('NOT language:English')).toEqual(['language: cannot leave records out; search for the value you want instead.']);
  });

  it('keeps a group as the value, and refuses fields inside groups or joined by OR', () => {
    expect(box('title:(solar OR wind) storage')).toEqual({ words: 'storage', params: { title: '(solar OR wind)' }, problems: [] });
    expect(messages('(plasma OR author:Smith)')).toEqual(['author: cannot go inside parentheses: a field narrows the whole search.']);
    expect(messages('plasma OR author:Smith')).toEqual(['author: cannot be joined with OR: a field narrows the whole search.']);
    expect(messages('author:Smith OR plasma')).toEqual(['author: cannot be joined with OR: a field narrows the whole search.']);
    expect(box('plasma AND author:Smith').words).toBe('plasma');
  });

  it('refuses a search with no words, and a field value without any', () => {
    for (const input of ['*', 'NOT', 'OR', '🔥', '%', '""', '( )', '- -', 'AND OR NOT']) {
      expect(messages(input), input).toEqual([`“${input}” has no words to search for.`]);
    }
    expect(messages('title:* plasma')).toEqual(['title:* has no words to search for.']);
    expect(messages('author:Smith *')).toEqual(['“*” has no words to search for.']);
    // Fields alone, and a negated word alone, are searches.
    expect(messages('author:Smith')).toEqual([]);
    expect(hasSearchableWords('-wind')).toBe(true);
    expect(hasSearchableWords('Müller CO₂ 核融合')).toBe(true);
  });

  it('is linear on long and adversarial input', () => {
    const long = `${'a:'.repeat(20_000)} ${'"'.repeat(20_000)} ${'('.repeat(20_000)}title:${'('.repeat(20_000)} ${'x'.repeat(50_000)}:y`;
    const parsed = parseFieldedQuery(lit, long, withExtensions);
    expect(parsed.terms.map((term) => term.field.name)).toEqual(['title']);
    expect(parsed.words.startsWith('a:a:')).toBe(true);
  });

  it('measures edits as one per typo, transpositions included', () => {
    expect(editDistance('autor', 'author')).toBe(1);
    expect(editDistance('titel', 'title')).toBe(1);
    expect(editDistance('', 'doi')).toBe(3);
  });
});

describe.each(deployments.map((deployment) => [deployment.key, deployment] as const))('%s query fields', (_key, deployment) => {
  const fields = searchModel(deployment).queryFields;
  it('has every text and exact parameter of the form, each name once', () => {
    const names = fields.flatMap((field) => field.names);
    expect(new Set(names).size).toBe(names.length);
    for (const param of deployment.params.filter((each) => each.advanced && (each.kind === 'text' || each.kind === 'exact'))) {
      expect(
        fields.some((field) => field.names.includes(param.name)),
        param.name,
      ).toBe(true);
    }
  });

  it('answers title:, author:, identifier:, year: and type:', () => {
    const { params, problems } = boxCriteria(deployment, 'title:plasma author:Smith identifier:X1 year:2012 type:Video', withExtensions);
    expect(problems).toEqual([]);
    expect(Object.keys(params).sort()).toEqual([
      'author',
      'identifier',
      'product_type',
      'publication_date_end',
      'publication_date_start',
      'title',
    ]);
  });
});
