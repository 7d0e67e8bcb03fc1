import { compileErrors, dereference, validate } from '@readme/openapi-parser';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { deployments } from '../../deployments/registry';
import { formatDay } from '../../formats/dates';
import { getJson, useFixture } from './server-fixture.test-support';

/**
 * `{base}/openapi.json`: a valid OpenAPI 3.1 document per deployment (checked by
 * @readme/openapi-parser), whose schemas the server's real answers satisfy and whose
 * parameter rules agree with what the server accepts and refuses.
 */

const fx = useFixture();
const ajv = new Ajv2020({ strict: false, allErrors: true });

type Doc = {
  servers: { url: string }[];
  paths: Record<
    string,
    { get: { parameters: { name: string; schema: { pattern?: string; enum?: string[] } }[]; responses: Record<string, Response> } }
  >;
};
type Response = { content: Record<string, { schema: object }>; headers?: Record<string, { schema: { pattern?: string } }> };

async function documentOf(basePath: string) {
  const { status, body, response } = await getJson<Doc>(`${fx.url}${basePath}/openapi.json`);
  expect(status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return body;
}

describe.each(deployments.map((deployment) => [deployment.key, deployment] as const))('%s OpenAPI description', (_key, deployment) => {
  it('is a valid OpenAPI 3.1 document naming this server and every parameter of the table', async () => {
    const doc = await documentOf(deployment.basePath);
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(doc.servers[0]!.url).toBe(`${fx.url}${deployment.basePath}`);
    expect(doc.paths['/records']!.get.parameters.map((param) => param.name)).toEqual([
      ...deployment.params.map((param) => param.name),
      // The server's own parameters of the record list (group).
      ...deployment.extensions.map((param) => param.name),
      // The combinable-facets extension: a selecting and an excluding parameter per facet.
      ...deployment.facets.flatMap((facet) => [`facet.${facet.name}`, `exclude.${facet.name}`]),
    ]);
  });

  it('describes what the server really answers: records and errors validate against its schemas', async () => {
    const doc = (await dereference(structuredClone(await documentOf(deployment.basePath)) as never)) as unknown as Doc;
    const search = doc.paths['/records']!.get.responses;
    const records = await getJson(fx.list(deployment, 'rows=50'));
    const validRecords = ajv.compile(search['200']!.content['application/json']!.schema);
    expect(validRecords(records.body), ajv.errorsText(validRecords.errors)).toBe(true);
    const groupedRecords = await getJson(fx.list(deployment, 'rows=50&group=work'));
    expect(validRecords(groupedRecords.body), ajv.errorsText(validRecords.errors)).toBe(true);
    const versions = groupedRecords.response.headers.get('X-Work-Versions')!;
    expect(versions).toMatch(new RegExp(search['200']!.headers!['X-Work-Versions']!.schema.pattern!));

    const facets = await getJson(`${fx.url}${deployment.basePath}/facets?q=wind&exclude.publication_year=1999&facet.publication_year=2020`);
    const validFacets = ajv.compile(doc.paths['/facets']!.get.responses['200']!.content['application/json']!.schema);
    expect(validFacets(facets.body), ajv.errorsText(validFacets.errors)).toBe(true);

    const error = await getJson(fx.list(deployment, 'rows=abc'));
    expect(error.status).toBe(400);
    const validError = ajv.compile(search['400']!.content['application/json']!.schema);
    expect(validError(error.body), ajv.errorsText(validError.errors)).toBe(true);
  });

  it('states the parameter rules the server applies: what matches is accepted, what does not is refused', async () => {
    const doc = await documentOf(deployment.basePath);
    const params = doc.paths['/records']!.get.parameters;
    const rule = (name: string) => params.find((param) => param.name === name)!.schema;
    const matches = (name: string, value: string) => new RegExp(rule(name).pattern!).test(value);

    const day = formatDay({ year: 2020, month: 2, day: 29 }, deployment.dateFormat);
    for (const value of [day, '2020-02-29']) {
      expect(matches('publication_date_start', value), value).toBe(true);
      expect((await getJson(fx.list(deployment, `publication_date_start=${value}`))).status, value).toBe(200);
    }
    const wrong = deployment.dateFormat === 'MM/DD/YYYY' ? '02-29-2020' : '02/29/2020';
    expect(matches('publication_date_start', wrong)).toBe(false);
    expect((await getJson(fx.list(deployment, `publication_date_start=${encodeURIComponent(wrong)}`))).status).toBe(400);

    for (const sort of ['relevance', 'publication_date desc', 'title asc']) {
      expect(matches('sort', sort), sort).toBe(true);
      expect((await getJson(fx.list(deployment, `sort=${encodeURIComponent(sort)}`))).status, sort).toBe(200);
    }
    expect(matches('sort', 'description')).toBe(false);
    expect((await getJson(fx.list(deployment, 'sort=description'))).status).toBe(400);
  });
});

describe('the OpenAPI description of a private mirror', () => {
  const privateFx = useFixture({ token: 'secret-token' });

  it('declares bearer authentication, and is itself behind the token', async () => {
    const lit = deployments[0]!;
    expect((await getJson(`${privateFx.url}${lit.basePath}/openapi.json`)).status).toBe(401);
    const { body } = await getJson<{ security: unknown; components: { securitySchemes: unknown } }>(
      `${privateFx.url}${lit.basePath}/openapi.json`,
      {
        Authorization: 'Bearer secret-token',
      },
    );
    expect(body.security).toEqual([{ bearer: [] }]);
    expect(body.components.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer' } });
  });
});
