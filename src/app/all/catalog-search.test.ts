import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isAbortError } from '../../client/errors';
import { deploymentByKey } from '../../deployments/registry';
import { CatalogTimeoutError, fetchWithTimeout } from './catalog-search';

const lit = deploymentByKey('LIT')!;

/** A server that takes every request and never answers: a catalog that is slow without end. */
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/lit/v1/records?q=x`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('a catalog that does not answer', () => {
  test('is given up after its own timeout, as a timeout', async () => {
    const error = await fetchWithTimeout(url, lit, new AbortController().signal, undefined, 300).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CatalogTimeoutError);
  });

  test('a search the page leaves is an abort, not a timeout', async () => {
    const controller = new AbortController();
    const pending = fetchWithTimeout(url, lit, controller.signal, undefined, 60_000).catch((caught: unknown) => caught);
    controller.abort();
    const error = await pending;
    expect(error).not.toBeInstanceOf(CatalogTimeoutError);
    expect(isAbortError(error)).toBe(true);
  });
});
