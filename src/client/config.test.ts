import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig, resolveConfig } from './config';

const page = 'http://app.test:8080/lit?q=x';

describe('resolveConfig', () => {
  test('relative base URLs resolve against the page; missing deployments use their local path', () => {
    const config = resolveConfig({ deployments: { LIT: { baseUrl: '/api/lit/v1/' }, MM: { baseUrl: 'https://mirror.test/mm/v1' } } }, page);
    expect(config.baseUrls.LIT).toBe('http://app.test:8080/api/lit/v1');
    expect(config.baseUrls.MM).toBe('https://mirror.test/mm/v1');
    expect(config.baseUrls.DC0).toBe('http://app.test:8080/api/dc/v0.1');
  });

  test('an empty object is a valid configuration', () => {
    expect(resolveConfig({}, page).baseUrls.ENR).toBe('http://app.test:8080/api/enr/v1');
  });

  test('clear errors for bad content', () => {
    expect(() => resolveConfig({ deployments: { LIT: { baseUrl: 42 } } }, page)).toThrow(/deployments\.LIT\.baseUrl/);
    expect(() => resolveConfig({ deployments: { XYZ: { baseUrl: '/x' } } }, page)).toThrow(/unknown deployment "XYZ"/);
    expect(() => resolveConfig({ deployments: { LIT: { baseUrl: 'javascript:alert(1)' } } }, page)).toThrow(/http\(s\)/);
    expect(() => resolveConfig([], page)).toThrow(ConfigError);
  });
});

describe('private mirror tokens', () => {
  test('no token: no deployment sends one', () => {
    expect(resolveConfig({ deployments: { LIT: { baseUrl: '/api/lit/v1' } } }, page).auth).toEqual({});
  });

  test('a top-level token serves every deployment; a deployment may name its own', () => {
    const config = resolveConfig(
      {
        token: 'for-all',
        deployments: { LIT: { baseUrl: 'https://mirror.test/lit/v1', token: 'lit-only' }, MM: { token: 'mm-only' } },
      },
      page,
    );
    expect(config.auth.LIT).toEqual({ token: 'lit-only', origin: 'https://mirror.test' });
    // A deployment entry with only a token keeps its local base path.
    expect(config.baseUrls.MM).toBe('http://app.test:8080/api/mm/v1');
    expect(config.auth.MM).toEqual({ token: 'mm-only', origin: 'http://app.test:8080' });
    expect(config.auth.DC0).toEqual({ token: 'for-all', origin: 'http://app.test:8080' });
    expect(Object.keys(config.auth).sort()).toEqual(['DC0', 'DC1', 'ENR', 'LIT', 'MM', 'PAT']);
  });

  test('a token an HTTP header cannot carry is refused with the place it was found', () => {
    expect(() => resolveConfig({ token: '' }, page)).toThrow(/token: token must not be empty/);
    expect(() => resolveConfig({ token: 'two words' }, page)).toThrow(/printable ASCII without spaces/);
    expect(() => resolveConfig({ deployments: { LIT: { token: 'line\nbreak' } } }, page)).toThrow(/deployments\.LIT\.token/);
    expect(() => resolveConfig({ token: 42 }, page)).toThrow(ConfigError);
  });
});

describe('loadConfig', () => {
  test('fetches /config.json from the page origin', async () => {
    const requested: string[] = [];
    const fetch = async (input: RequestInfo | URL) => {
      requested.push(String(input));
      return new Response(JSON.stringify({ deployments: { PAT: { baseUrl: '/p/v1' } } }));
    };
    const config = await loadConfig(page, { fetch });
    expect(requested).toEqual(['http://app.test:8080/config.json']);
    expect(config.baseUrls.PAT).toBe('http://app.test:8080/p/v1');
  });

  test('a missing file, invalid JSON or a network failure is a ConfigError', async () => {
    await expect(loadConfig(page, { fetch: async () => new Response('nope', { status: 404 }) })).rejects.toThrow(/answered 404/);
    await expect(loadConfig(page, { fetch: async () => new Response('<html>') })).rejects.toThrow(/not valid JSON/);
    await expect(
      loadConfig(page, {
        fetch: async () => {
          throw new TypeError('Failed to fetch');
        },
      }),
    ).rejects.toThrow(ConfigError);
  });
});
