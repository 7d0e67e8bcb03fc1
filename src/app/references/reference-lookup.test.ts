import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import type { ParsedReference } from './reference-input';
import { lookUpReferences, type Catalog, type ReferenceResult } from './reference-lookup';

/**
 * A catalog that takes every request and never answers, beside one that answers at once: the
 * run still finishes, each reference says the hanging catalog did not answer in time, and the
 * hanging catalog is not asked once per reference, each waiting out its own timeout.
 */

const dc1 = deploymentByKey('DC1')!;
const lit = deploymentByKey('LIT')!;

let hanging: Server;
let answering: Server;
let hangingRequests = 0;
const base = (server: Server, deploymentPath: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${deploymentPath}`;

beforeAll(async () => {
  hanging = createServer(() => {
    hangingRequests += 1;
  });
  answering = createServer((_, response) => {
    response.writeHead(200, { 'Content-Type': 'application/json', 'X-Total-Count': '0' });
    response.end('[]');
  });
  await Promise.all([hanging, answering].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
});
afterAll(async () => {
  for (const server of [hanging, answering]) server.closeAllConnections();
  await Promise.all([hanging, answering].map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('a catalog that hangs', () => {
  test('times out, is said for every reference, and is not asked again in the run', async () => {
    const catalogs: Catalog[] = [
      { deployment: dc1, baseUrl: base(answering, dc1.basePath), auth: undefined },
      { deployment: lit, baseUrl: base(hanging, lit.basePath), auth: undefined },
    ];
    const references: ParsedReference[] = Array.from({ length: 30 }, (_, n) => ({
      kind: 'doi',
      text: `10.1234/work.${n}`,
      doi: `10.1234/work.${n}`,
      surnames: [],
    }));
    const results: ReferenceResult[] = [];
    await lookUpReferences(references, catalogs, {
      signal: new AbortController().signal,
      timeoutMs: 1_000,
      concurrency: 4,
      onResult: (index, result) => (results[index] = result),
    });
    expect(results.filter(Boolean)).toHaveLength(30);
    for (const result of results) {
      expect(result.failures.map((failure) => failure.catalog)).toEqual(['LIT']);
      expect(result.failures[0]!.message).toMatch(/^No answer within 1 second\. /);
    }
    // Once one request timed out, the rest of the run does not wait on it: at most those already in flight were sent.
    expect(hangingRequests).toBeLessThanOrEqual(4);
  });
});
