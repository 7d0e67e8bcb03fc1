import { describe, expect, it } from 'vitest';
import { recordToFullBibtex } from '../../formats/bibtex-full';
import { ApiRequestError, InvalidResponseError } from '../../client/errors';
import { deploymentByKey, type ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { recordsToCsv } from '../../formats/csv';
import { exportRecord } from './record-export';
import { exportSelection } from './selection-export';

function must(key: string): Deployment {
  const deployment = deploymentByKey(key);
  if (!deployment) throw new Error(key);
  return deployment;
}

const dc0 = must('DC0');
const record: ApiRecord = { repo_id: '123', title: 'Plasma, "edge" data', authors: ['Bell, R.E. [PPPL]'], research_org: 'PPPL' };

/** A server that answers the record in whatever format Accept asks for, and records the asks. */
function server(answer: (accept: string) => Response) {
  const asked: { url: string; accept: string }[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const accept = new Headers(init?.headers).get('Accept') ?? '';
    asked.push({ url: String(input), accept });
    return answer(accept);
  }) as typeof globalThis.fetch;
  return { fetch, asked };
}

describe('exportRecord', () => {
  it.each([
    ['bibtex', 'application/x-bibtex', '@misc{records_123,\n  title = {Plasma}\n}\n', 'dc-v0.1-123.bib'],
    ['xml', 'application/xml', '<?xml version="1.0" encoding="UTF-8"?>\n<records><record/></records>\n', 'dc-v0.1-123.xml'],
    ['json', 'application/json', '[{"repo_id":"123"}]', 'dc-v0.1-123.json'],
  ] as const)('saves the server’s %s exactly as negotiated', async (format, type, body, fileName) => {
    const api = server(() => new Response(body, { headers: { 'Content-Type': `${type}; charset=utf-8` } }));
    const file = await exportRecord({ deployment: dc0, baseUrl: 'https://api.example/dc/v0.1/', record, format, fetch: api.fetch });
    expect(api.asked).toEqual([{ url: 'https://api.example/dc/v0.1/records/123', accept: type }]);
    expect(await file.blob.text()).toBe(body);
    expect(file.fileName).toBe(fileName);
  });

  it('makes CSV, RIS and CSL-JSON in the browser without a request', async () => {
    const api = server(() => {
      throw new Error('no request expected');
    });
    const csv = await exportRecord({ deployment: dc0, baseUrl: 'https://api.example', record, format: 'csv', fetch: api.fetch });
    expect(await csv.blob.text()).toBe(recordsToCsv(dc0, [record]));
    const ris = await exportRecord({ deployment: dc0, baseUrl: 'https://api.example', record, format: 'ris', fetch: api.fetch });
    expect(await ris.blob.text()).toMatch(/^TY {2}- DATA\r\n[\s\S]*AU {2}- Bell, R\.E\.\r\n[\s\S]*ER {2}- \r\n/);
    const csl = await exportRecord({ deployment: dc0, baseUrl: 'https://api.example', record, format: 'csl-json', fetch: api.fetch });
    expect(JSON.parse(await csl.blob.text())).toEqual([expect.objectContaining({ id: 'dc-v0.1-123', type: 'dataset' })]);
    expect(csl.fileName).toBe('dc-v0.1-123.csl.json');
    const full = await exportRecord({ deployment: dc0, baseUrl: 'https://api.example', record, format: 'bibtex-full', fetch: api.fetch });
    expect(await full.blob.text()).toBe(recordToFullBibtex(dc0, record, 'records'));
    expect(full.fileName).toBe('dc-v0.1-123.full.bib');
    expect(api.asked).toEqual([]);
  });

  it('passes on the server’s error, read from whatever format it used', async () => {
    const api = server(
      () => new Response('404\nNot Found\nNo record matches the identifier.\n', { status: 404, headers: { 'Content-Type': 'text/plain' } }),
    );
    const attempt = exportRecord({ deployment: dc0, baseUrl: 'https://api.example', record, format: 'bibtex', fetch: api.fetch });
    await expect(attempt).rejects.toBeInstanceOf(ApiRequestError);
    await expect(attempt).rejects.toThrow('No record matches the identifier.');
  });

  it('refuses to save JSON under an XML name when a server ignores Accept', async () => {
    const api = server(() => new Response('[]', { headers: { 'Content-Type': 'application/json' } }));
    const attempt = exportRecord({ deployment: dc0, baseUrl: 'https://api.example', record, format: 'xml', fetch: api.fetch });
    await expect(attempt).rejects.toBeInstanceOf(InvalidResponseError);
  });
});

describe('exportSelection', () => {
  it('writes the selected records into one file named for the selection', async () => {
    const second: ApiRecord = { repo_id: '124', title: 'Second' };
    const file = exportSelection(dc0, [record, second], 'csv', { bom: true });
    expect(file.fileName).toBe('dc-v0.1-selection-2.csv');
    // Blob.text() would drop the byte order mark while decoding: compare the bytes.
    const bytes = new Uint8Array(await file.blob.arrayBuffer());
    expect(bytes).toEqual(new TextEncoder().encode(recordsToCsv(dc0, [record, second], { bom: true })));
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const xml = exportSelection(dc0, [record, second], 'xml');
    expect(await xml.blob.text()).toMatch(/^<\?xml[\s\S]*<record>[\s\S]*<record>[\s\S]*<\/records>\n$/);
  });
});
