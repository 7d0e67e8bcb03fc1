import { expect, test } from 'vitest';
import { authorizationHeader } from './auth';

const auth = { token: 's3cret', origin: 'https://mirror.test:8443' };

test('the token goes to its own origin only', () => {
  expect(authorizationHeader('https://mirror.test:8443/api/lit/v1/records?q=x', auth)).toEqual({ Authorization: 'Bearer s3cret' });
  // Another host, scheme or port is another server: no token.
  expect(authorizationHeader('https://elsewhere.test/api/lit/v1/records', auth)).toEqual({});
  expect(authorizationHeader('http://mirror.test:8443/api/lit/v1/records', auth)).toEqual({});
  expect(authorizationHeader('https://mirror.test/api/lit/v1/records', auth)).toEqual({});
  expect(authorizationHeader('not a url', auth)).toEqual({});
  expect(authorizationHeader('https://mirror.test:8443/x', undefined)).toEqual({});
});
