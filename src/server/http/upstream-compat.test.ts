import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployments } from '../../deployments/registry';
import { apiErrorSchema } from '../../formats/error';
import { startServer, type RunningServer } from './server';
import { getJson, rawRequest, startFixture, type Fixture, type Rec } from './server-fixture.test-support';

/**
 * `records serve --compat upstream`: scripts written for the upstream API work against a
 * mirror, while a server without the profile keeps the spec's strictness.
 */

let compat: Fixture;
let strict: RunningServer;
beforeAll(async () => {
  compat = await startFixture({ compat: 'upstream' });
  strict = await startServer({ store: compat.store, port: 0 });
});
afterAll(async () => {
  await strict?.close();
  await compat?.close();
});

const lit = deployments[0]!;
const recordId = '1003';

describe.each(deployments.map((deployment) => [deployment.key, deployment] as const))('%s in the upstream profile', (_key, deployment) => {
  it('reads osti_id as repo_id', async () => {
    const { status, body } = await getJson<Rec[]>(`${compat.url}${deployment.basePath}/records?osti_id=${recordId}`);
    expect(status).toBe(200);
    expect(body.map((record) => record.repo_id)).toEqual([recordId]);
  });

  it('gives records the upstream names beside the spec names, in JSON and XML', async () => {
    const {
      body: [body],
    } = await getJson<Rec[]>(`${compat.url}${deployment.basePath}/records/${recordId}`);
    if (!body) throw new Error('no record');
    expect(body.repo_id).toBe(recordId);
    expect(body.osti_id).toBe(recordId);
    const keys = Object.keys(body);
    expect(keys.indexOf('osti_id')).toBe(keys.indexOf('repo_id') + 1);
    if ('agency_contract_number' in body) expect(body.doe_contract_number).toBe(body.agency_contract_number);

    const xml = await rawRequest(`${compat.url}${deployment.basePath}/records?repo_id=${recordId}`, {
      headers: { Accept: 'application/xml' },
    });
    const record = new XMLParser({ parseTagValue: false }).parse(xml.body.toString('utf8')).records.record;
    expect(String(record.osti_id)).toBe(recordId);
    expect(String(record.repo_id)).toBe(recordId);
  });
});

describe('the upstream profile', () => {
  it('ignores unknown parameters and names them in a Warning header', async () => {
    const url = `${compat.url}${lit.basePath}/records?title=solar&fl=title%2Cauthors&api_key=x%0D%0AX-Injected:1`;
    const response = await rawRequest(url);
    expect(response.status).toBe(200);
    expect(response.headers.warning).toBe('299 - "Unknown parameters ignored: fl, api_key"');
    expect(response.headers['x-injected']).toBeUndefined();
    const ids = (JSON.parse(response.body.toString('utf8')) as Rec[]).map((record) => record.repo_id).sort();
    expect(ids).toEqual(['1003', '1004']);
    // Link targets repeat what was read, not what was ignored.
    expect(String(response.headers.link ?? '')).not.toContain('api_key');
  });

  it("takes MPCite's osti_id lists (A OR B OR C), and refuses lists longer than it reads", async () => {
    const { status, body } = await getJson<Rec[]>(
      `${compat.url}${lit.basePath}/records?osti_id=${encodeURIComponent('1003 OR 1005 OR 999999 OR 1001')}`,
    );
    expect(status).toBe(200);
    expect(body.map((record) => record.repo_id).sort()).toEqual(['1001', '1003', '1005']);
    const tooMany = Array.from({ length: 101 }, (_, i) => String(1000 + i)).join(' OR ');
    const refused = await getJson(`${compat.url}${lit.basePath}/records?osti_id=${encodeURIComponent(tooMany)}`);
    expect(refused.status).toBe(400);
    expect(apiErrorSchema.parse(refused.body).errorDescription).toContain('at most 100');
    // The spec's server reads the value as one identifier, which no record has.
    const strictAnswer = await getJson<Rec[]>(`${strict.url}${lit.basePath}/records?repo_id=${encodeURIComponent('1003 OR 1005')}`);
    expect(strictAnswer.body).toEqual([]);
  });

  it('clamps rows above the maximum, as the upstream does, and says so in a Warning header', async () => {
    const response = await rawRequest(`${compat.url}${lit.basePath}/records?rows=2186&fl=x`);
    expect(response.status).toBe(200);
    expect(response.headers.warning).toBe('299 - "rows=2186 is above the maximum; 1000 returned", 299 - "Unknown parameters ignored: fl"');
    expect(JSON.parse(response.body.toString('utf8')).length).toBe(Number(response.headers['x-total-count']));
    expect((await rawRequest(`${strict.url}${lit.basePath}/records?rows=2186`)).status).toBe(400);
  });

  it("repeats DC1's contributing organisation under the upstream's names, in JSON and once in XML", async () => {
    const dc1 = deployments.find((deployment) => deployment.key === 'DC1')!;
    const {
      body: [record],
    } = await getJson<Rec[]>(`${compat.url}${dc1.basePath}/records/1027`);
    expect(record?.contributor_org).toBe('Zephyrine Institute');
    expect(record?.contributing_org).toBe('Zephyrine Institute');
    expect(record?.contributing_organizations).toBe('Zephyrine Institute');
    const xml = await rawRequest(`${compat.url}${dc1.basePath}/records/1027`, { headers: { Accept: 'application/xml' } });
    expect(xml.body.toString('utf8').match(/<contributing_org>/g)).toHaveLength(1);
    expect(xml.body.toString('utf8')).toContain('<contributing_organizations>Zephyrine Institute</contributing_organizations>');
  });

  it('still refuses what the spec refuses: bad values, a parameter given twice', async () => {
    for (const query of ['publication_date_start=2020-02-30', 'repo_id=1&osti_id=2', 'rows=0']) {
      const { status, body } = await getJson(`${compat.url}${lit.basePath}/records?${query}`);
      expect(status, query).toBe(400);
      expect(apiErrorSchema.parse(body).statusCode).toBe(400);
    }
  });

  it('is off by default: the spec server answers osti_id and unknown parameters with 400 and adds no names', async () => {
    for (const query of ['osti_id=1003', 'fl=title']) {
      const { status, body } = await getJson(`${strict.url}${lit.basePath}/records?${query}`);
      expect(status, query).toBe(400);
      expect(apiErrorSchema.parse(body).errorDescription).toContain(query.split('=')[0]);
    }
    const {
      body: [body],
    } = await getJson<Rec[]>(`${strict.url}${lit.basePath}/records/${recordId}`);
    expect(body?.repo_id).toBe(recordId);
    expect(body?.osti_id).toBeUndefined();
    expect(body?.doe_contract_number).toBeUndefined();
  });
});
