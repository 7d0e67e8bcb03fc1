import { describe, expect, it } from 'vitest';
import { deployments } from '../../deployments/registry';
import type { Deployment, ParamDef } from '../../deployments/schema';
import type { KeyName } from '../../deployments/key-names';
import { apiErrorSchema } from '../../formats/error';
import {
  fixtureIds,
  fixtureSpecs,
  getJson,
  listIds,
  markerColumns,
  markerWord,
  qs,
  sorted,
  storedLinks,
  useFixture,
  type Rec,
} from './server-fixture.test-support';

/**
 * Query parameters: names are checked (typos and other deployments' parameters are
 * reported, not ignored), repeats rejected, empty values ignored, and every parameter of
 * every deployment filters as docs/design.md says — driven by the deployment table, so a new
 * parameter without a probe here fails the suite.
 */

const fx = useFixture();
const byDeployment = deployments.map((deployment) => [deployment.key, deployment] as const);
const all = sorted(fixtureIds);
const except = (...ids: string[]) => all.filter((id) => !ids.includes(id));

async function badRequest(url: string) {
  const { status, body } = await getJson<unknown>(url);
  expect(status, url).toBe(400);
  const error = apiErrorSchema.parse(body);
  expect(error.statusCode).toBe(400);
  expect(error.statusMessage).toBe('Bad Request');
  return error.errorDescription;
}

describe('parameter names', () => {
  it.each([
    ['titel', 'title'],
    ['autor', 'author'],
    ['publication_date_strat', 'publication_date_start'],
    ['rowz', 'rows'],
    ['Language', 'language'],
    ['biblo', 'biblio'],
  ])('an unknown name (%s) is 400 suggesting %s', async (typo, meant) => {
    for (const deployment of deployments) {
      const description = await badRequest(fx.list(deployment, qs({ [typo]: 'wind' })));
      expect(description).toContain(typo);
      expect(description).toContain('Did you mean');
      expect(description).toContain(`'${meant}'`);
    }
  });

  it('a name like nothing valid is 400 naming it', async () => {
    const description = await badRequest(fx.list(deployments[0]!, 'xyzzy_plugh_frobnicate=1'));
    expect(description).toContain('xyzzy_plugh_frobnicate');
  });

  const foreign = deployments.flatMap((deployment) =>
    [...new Set(deployments.flatMap((other) => other.params.map((param) => param.name)))]
      .filter((name) => !deployment.params.some((param) => param.name === name))
      .map((name) => [deployment.key, name, deployment] as const),
  );

  it('some parameters belong to other deployments only (the table below is not empty)', () => {
    expect(foreign.map(([key, name]) => `${key}:${name}`)).toEqual(
      expect.arrayContaining(['LIT:mime_type', 'MM:fulltext', 'DC0:doi', 'ENR:site_ownership_code']),
    );
  });

  it.each(foreign)('%s: %s is 400 saying whose parameter it is', async (_key, name, deployment) => {
    const description = (await badRequest(fx.list(deployment, qs({ [name]: 'x' })))).toLowerCase();
    expect(description).toContain(name);
    const owners = deployments.filter((other) => other.params.some((param) => param.name === name));
    for (const owner of owners) expect(description).toContain(`${owner.name.toLowerCase()} ${owner.version}`);
    expect(description).not.toContain(`${deployment.name.toLowerCase()} ${deployment.version} only`);
  });

  it.each([
    ['q=wind&q=solar', 'q'],
    ['rows=5&page=1&rows=5', 'rows'],
    ['language=English&title=wind&language=German', 'language'],
  ])('a repeated parameter (%s) is 400 naming it', async (query, name) => {
    for (const deployment of deployments) {
      const description = await badRequest(fx.list(deployment, query));
      expect(description).toContain(name);
    }
  });

  it.each(byDeployment)('%s: an empty value counts as absent, for every parameter', async (_key, deployment) => {
    const everything = await listIds(fx.list(deployment, 'rows=1000'));
    for (const param of deployment.params) {
      for (const query of [`${param.name}=`, param.name]) {
        const { status, total } = await getJson<Rec[]>(fx.list(deployment, query));
        expect(status, query).toBe(200);
        expect(total, query).toBe(everything.length);
      }
    }
  });
});

/** Probes for the exact-match keys: value → ids, with case changed from the stored value. */
const exactProbes: Record<Exclude<KeyName, 'has_fulltext' | 'product_type'>, [value: string, ids: string[]][]> = {
  language: [
    ['GERMAN', ['1030', '1031']],
    ['french', ['1032']],
    ['english', except('1030', '1031', '1032')],
    ['Engl', []],
  ],
  country: [
    ['germany', ['1030', '1031']],
    ['FRANCE', ['1032']],
    ['united STATES', except('1030', '1031', '1032')],
    ['United', []],
  ],
  site: [
    ['pppl', ['1030', '1031']],
    ['Osti', except('1030', '1031')],
    ['PP', []],
  ],
  mime_type: [
    ['X-MS-WMA', ['1030']],
    ['MP4', ['1031']],
    ['Html', ['1032']],
    ['mp', []],
  ],
  dataset_content_type: [
    ['simulation', ['1030', '1031']],
    ['NUMERIC', ['1031', '1032']],
    ['Sim', []],
  ],
  identifier: [
    ['ornl/tm-2024/17', ['1030']], // report (DC1: product) number
    ['ac02-09ch11466', ['1030']], // second of two joined contract numbers
    ['AC05-00OR22725', ['1030']],
    ['10.5555/ALPHA.1', ['1030']], // DOI stored bare
    ['https://doi.org/10.5555/beta.2', ['1031']], // DOI stored as a resolver URL
    ['sand2020-1234 r', ['1032']],
    ['1032', ['1032']], // repo_id
    ['AC05', []],
    // Authors' ORCID iDs, stored plain (1007) or hyphenated (1038), found in every written form.
    ['0000-0001-9544-4980', ['1007']],
    ['0000000195444980', ['1007']],
    ['https://orcid.org/0000-0001-9544-4980', ['1007']],
    ['0000000123456789', ['1038']],
    ['0000-0001-2345-6789', ['1038']],
    ['0000-0001-2345-678', []],
  ],
  // The facets' extension parameters. A name without affiliation or ORCID iD, by surname and initials in any spelling:
  author_name: [
    ['OKAFOR, CHIDI', ['1001', '1002']],
    ['Okafor, C.', ['1001', '1002']],
    ['müller, hans peter', ['1007']],
    ['Mueller, H.P.', []],
    ['Okafor', []],
    ['Okafor, D', []],
  ],
  // A subject in any case and number, whole:
  subject_term: [
    ['ZEPHYRINES', ['1022']],
    ['zephyr', []],
  ],
  // An organisation in any case and punctuation, whole:
  research_org_name: [
    ['zephyrine laboratory.', ['1026']],
    ['Zephyrine', []],
    ['Zephyrine Foundation', []],
  ],
  sponsor_org_name: [
    ['ZEPHYRINE, FOUNDATION', ['1025']],
    ['Zephyrine', []],
  ],
  // A journal in any case and punctuation, whole:
  journal: [
    ['zyxtopia letters', ['1030', '1031']],
    ['Zyxtopia', []],
  ],
  doi: [
    ['https://doi.org/10.5555/alpha.1', ['1030']],
    ['doi:10.5555/Alpha.1', ['1030']],
    ['10.5555/beta.2', ['1031']],
    ['https://dx.doi.org/10.5555/BETA.2', ['1031']],
    ['10.5555', []],
  ],
};

function ownFormat(deployment: Deployment, iso: string): string {
  const [year, month, day] = iso.split('-');
  return deployment.dateFormat === 'MM/DD/YYYY' ? `${month}/${day}/${year}` : `${month}-${day}-${year}`;
}

const specDate = (field: string, id: string) => {
  const spec = fixtureSpecs.find((candidate) => candidate.id === id)!;
  return field === 'publication_date' ? spec.published : (spec.entered ?? '2024-01-15T08:30:00Z');
};

/** One check per parameter kind; every parameter of every deployment must get one. */
async function checkFilters(deployment: Deployment, param: ParamDef) {
  const ids = (query: string) => listIds(fx.list(deployment, `${query}&rows=1000`)).then(sorted);
  switch (param.kind) {
    case 'text': {
      // The marker word sits in one search column per record; the parameter finds exactly
      // the records whose column it searches.
      const expected = sorted(
        Object.entries(markerColumns)
          .filter(([, column]) => param.columns.includes(column))
          .map(([id]) => id),
      );
      expect(expected.length).toBeGreaterThan(0);
      expect(await ids(qs({ [param.name]: markerWord })), param.name).toEqual(expected);
      expect(await ids(qs({ [param.name]: markerWord.toUpperCase() })), param.name).toEqual(expected);
      return;
    }
    case 'exact': {
      if (param.key === 'has_fulltext' || param.key === 'product_type') throw new Error(`no spec parameter may reach the ${param.key} key`);
      const probes = exactProbes[param.key];
      if (!probes) throw new Error(`no probe for exact key ${param.key}`);
      for (const [value, expected] of probes) {
        expect(await ids(qs({ [param.name]: value })), `${param.name}=${value}`).toEqual(sorted(expected));
      }
      return;
    }
    case 'repo_id':
      expect(await ids('repo_id=1032')).toEqual(['1032']);
      expect(await ids('repo_id=%201032%20')).toEqual(['1032']);
      expect(await ids('repo_id=103')).toEqual([]);
      expect(await ids('repo_id=10320')).toEqual([]);
      return;
    case 'boolean': {
      const withText = sorted(
        fixtureSpecs.filter((spec) => storedLinks(deployment, spec).some((link) => link.rel === 'fulltext')).map((spec) => spec.id),
      );
      expect(withText.length).toBeGreaterThan(0);
      expect(await ids(`${param.name}=true`)).toEqual(withText);
      expect(await ids(`${param.name}=TRUE`)).toEqual(withText);
      expect(await ids(`${param.name}=false`)).toEqual(all.filter((id) => !withText.includes(id)));
      for (const garbage of ['yes', '1', 'maybe', 'truee']) {
        expect(await badRequest(fx.list(deployment, `${param.name}=${garbage}`))).toContain(param.name);
      }
      return;
    }
    case 'date': {
      const day = param.field === 'publication_date' ? '2021-03-16' : '2022-07-01';
      const boundary = `${day}T00:00:00Z`;
      const expected = all.filter((id) =>
        param.bound === 'start' ? specDate(param.field, id) >= boundary : specDate(param.field, id) < boundary,
      );
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(all.length);
      // An end bound covers its whole day, so compare the end bound against the day before.
      const value = param.bound === 'start' ? day : param.field === 'publication_date' ? '2021-03-15' : '2022-06-30';
      expect(await ids(qs({ [param.name]: ownFormat(deployment, value) })), param.name).toEqual(expected);
      return;
    }
    case 'sort': {
      const byDate = await listIds(fx.list(deployment, 'rows=1000'));
      const byTitle = await listIds(fx.list(deployment, 'rows=1000&sort=title'));
      expect(sorted(byTitle)).toEqual(sorted(byDate));
      expect(byTitle).not.toEqual(byDate);
      return;
    }
    case 'order': {
      const desc = await listIds(fx.list(deployment, 'rows=1000'));
      const asc = await listIds(fx.list(deployment, 'rows=1000&order=asc'));
      expect(asc[0]).toBe(desc.at(-1));
      expect(asc.at(-1)).toBe(desc[0]);
      return;
    }
    case 'integer': {
      if (param.name === 'rows') {
        expect(await listIds(fx.list(deployment, 'rows=3'))).toHaveLength(3);
      } else {
        const first = await listIds(fx.list(deployment, 'rows=10&page=1'));
        const second = await listIds(fx.list(deployment, 'rows=10&page=2'));
        expect(second).toHaveLength(10);
        expect(second.filter((id) => first.includes(id))).toEqual([]);
      }
      return;
    }
    case 'group': {
      // A presentation, not a filter: the same records, each work's versions together.
      const all = await listIds(fx.list(deployment, 'rows=1000'));
      expect(sorted(await listIds(fx.list(deployment, `rows=1000&${param.name}=${param.values[0]}`)))).toEqual(sorted(all));
      return;
    }
    default: {
      const unhandled: never = param;
      throw new Error(`no check for parameter kind of ${JSON.stringify(unhandled)}`);
    }
  }
}

describe.each(byDeployment)('%s: each parameter filters', (_key, deployment) => {
  it.each([...deployment.params, ...deployment.extensions].map((param) => [param.name, param.kind, param] as const))(
    '%s (%s)',
    async (_name, _kind, param) => {
      await checkFilters(deployment, param);
    },
  );
});

describe.each(byDeployment)("%s: each facet's extension parameter selects its folded values", (_key, deployment) => {
  const folded = deployment.facets.flatMap(({ criterion, key, fold }) =>
    criterion.kind === 'extension' && key && fold ? [[criterion.param, key] as const] : [],
  );
  it.each(folded)('%s', async (param, key) => {
    const probes = exactProbes[key as keyof typeof exactProbes];
    expect(probes, key).toBeDefined();
    for (const [value, expected] of probes) {
      expect(sorted(await listIds(fx.list(deployment, `${qs({ [param]: value })}&rows=1000`))), `${param}=${value}`).toEqual(
        sorted(expected),
      );
    }
  });
});

describe('filters combine with AND', () => {
  it.each(byDeployment)('%s: language and country and a text parameter together', async (_key, deployment) => {
    expect(sorted(await listIds(fx.list(deployment, 'language=german&country=germany')))).toEqual(['1030', '1031']);
    expect(await listIds(fx.list(deployment, 'language=german&country=france'))).toEqual([]);
    expect(await listIds(fx.list(deployment, 'language=german&title=plasma'))).toEqual(['1030']);
    expect(await listIds(fx.list(deployment, 'identifier=1032&repo_id=1031'))).toEqual([]);
  });
});
