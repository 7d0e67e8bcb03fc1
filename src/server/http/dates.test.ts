import { describe, expect, it } from 'vitest';
import { deployments } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { apiErrorSchema } from '../../formats/error';
import { fixtureIds, getJson, listIds, qs, sorted, useFixture } from './server-fixture.test-support';

/**
 * Date parameters: each deployment's own format (MM/DD/YYYY or MM-DD-YYYY) and ISO are
 * accepted; anything else is a 400 that tells the client the format. Bounds are whole UTC
 * days, inclusive at both ends.
 *
 * Fixture: 1040 was published 2021-03-15T23:59:59Z and entered 2022-06-30T23:59:59Z;
 * 1041 was published 2021-03-16T00:00:00Z and entered 2022-07-01T00:00:00Z; no other
 * record falls on those days.
 */

const fx = useFixture();
const byDeployment = deployments.map((deployment) => [deployment.key, deployment] as const);

function own(deployment: Deployment, month: string, day: string, year: string) {
  return deployment.dateFormat === 'MM/DD/YYYY' ? `${month}/${day}/${year}` : `${month}-${day}-${year}`;
}
function other(deployment: Deployment, month: string, day: string, year: string) {
  return deployment.dateFormat === 'MM/DD/YYYY' ? `${month}-${day}-${year}` : `${month}/${day}/${year}`;
}

const dateParams = (deployment: Deployment) => deployment.params.filter((param) => param.kind === 'date').map((param) => param.name);

async function rejected(url: string) {
  const { status, body } = await getJson<unknown>(url);
  expect(status, url).toBe(400);
  const error = apiErrorSchema.parse(body);
  expect(error.statusCode).toBe(400);
  return error.errorDescription;
}

describe.each(byDeployment)('%s dates', (_key, deployment) => {
  it('has the four date parameters', () => {
    expect(dateParams(deployment).sort()).toEqual(['entry_date_end', 'entry_date_start', 'publication_date_end', 'publication_date_start']);
  });

  it(`accepts its own format (${deployment.dateFormat}) and ISO YYYY-MM-DD alike`, async () => {
    const ownIds = await listIds(
      fx.list(
        deployment,
        qs({ publication_date_start: own(deployment, '03', '15', '2021'), publication_date_end: own(deployment, '03', '16', '2021') }),
      ),
    );
    const isoIds = await listIds(fx.list(deployment, qs({ publication_date_start: '2021-03-15', publication_date_end: '2021-03-16' })));
    expect(sorted(ownIds)).toEqual(['1040', '1041']);
    expect(isoIds).toEqual(ownIds);
    // One-digit months and days in the deployment's own format.
    const short = deployment.dateFormat === 'MM/DD/YYYY' ? '3/15/2021' : '3-15-2021';
    expect(await listIds(fx.list(deployment, qs({ publication_date_start: short, publication_date_end: short })))).toEqual(['1040']);
  });

  it('rejects the other deployments’ format, garbage and impossible dates with 400 naming the expected format', async () => {
    const bad = [
      other(deployment, '03', '15', '2021'),
      'yesterday',
      '2021/03/15',
      '15.03.2021',
      own(deployment, '03', '15', '21'),
      own(deployment, '13', '01', '2021'),
      own(deployment, '00', '10', '2021'),
      own(deployment, '02', '30', '2024'),
      own(deployment, '04', '31', '2023'),
      own(deployment, '02', '29', '2023'),
      '2024-02-30',
      '2021-03-15T00:00:00Z',
      '20210315',
    ].filter((value, index, values) => values.indexOf(value) === index);
    for (const name of dateParams(deployment)) {
      for (const value of bad) {
        const description = await rejected(fx.list(deployment, qs({ [name]: value })));
        expect(description, `${name}=${value}`).toContain(name);
        expect(description, `${name}=${value}`).toContain(deployment.dateFormat);
      }
    }
  });

  it('accepts 29 February in a leap year', async () => {
    const { status } = await getJson(fx.list(deployment, qs({ publication_date_start: own(deployment, '02', '29', '2024') })));
    expect(status).toBe(200);
  });

  it('publication date bounds are inclusive whole UTC days', async () => {
    const on = (month: string, day: string) =>
      listIds(
        fx.list(
          deployment,
          qs({ publication_date_start: own(deployment, month, day, '2021'), publication_date_end: own(deployment, month, day, '2021') }),
        ),
      );
    // 23:59:59Z on the end day is included; midnight of the next day is not.
    expect(await on('03', '15')).toEqual(['1040']);
    expect(await on('03', '16')).toEqual(['1041']);
    const until = await listIds(fx.list(deployment, qs({ publication_date_end: own(deployment, '03', '15', '2021'), rows: 1000 })));
    expect(until).toContain('1040');
    expect(until).not.toContain('1041');
    const from = await listIds(fx.list(deployment, qs({ publication_date_start: own(deployment, '03', '16', '2021'), rows: 1000 })));
    expect(from).toContain('1041');
    expect(from).not.toContain('1040');
  });

  it('entry date bounds are inclusive whole UTC days', async () => {
    const on = (month: string, day: string) =>
      listIds(
        fx.list(
          deployment,
          qs({ entry_date_start: own(deployment, month, day, '2022'), entry_date_end: own(deployment, month, day, '2022') }),
        ),
      );
    expect(await on('06', '30')).toEqual(['1040']);
    expect(await on('07', '01')).toEqual(['1041']);
  });

  it('the widest bounds (01/01/0001 to 12/31/9999) include every record', async () => {
    for (const field of ['publication_date', 'entry_date']) {
      const { status, total } = await getJson(
        fx.list(
          deployment,
          qs({ [`${field}_start`]: own(deployment, '01', '01', '0001'), [`${field}_end`]: own(deployment, '12', '31', '9999') }),
        ),
      );
      expect(status).toBe(200);
      expect(total, field).toBe(fixtureIds.length);
      const { total: endOnly } = await getJson(fx.list(deployment, qs({ [`${field}_end`]: '9999-12-31' })));
      expect(endOnly, field).toBe(fixtureIds.length);
    }
  });

  it('start after end is 400', async () => {
    for (const field of ['publication_date', 'entry_date']) {
      const description = await rejected(
        fx.list(
          deployment,
          qs({ [`${field}_start`]: own(deployment, '03', '16', '2021'), [`${field}_end`]: own(deployment, '03', '15', '2021') }),
        ),
      );
      expect(description).toContain(field);
    }
    // The same day at both ends is a one-day range, not an error.
    const { status } = await getJson(fx.list(deployment, qs({ publication_date_start: '2021-03-16', publication_date_end: '2021-03-16' })));
    expect(status).toBe(200);
  });
});
