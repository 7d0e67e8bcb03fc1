import { expect, test } from 'vitest';
import { ApiRequestError } from '../../client/errors';
import { errorMessage } from './error-message';

test('a refused token says what is needed, with the server description', () => {
  const description = 'This mirror is private: send Authorization: Bearer <token>.';
  const error = new ApiRequestError(401, 'http://mirror.test/api/lit/v1/records', {
    statusCode: 401,
    statusMessage: 'Unauthorized',
    errorDescription: description,
  });
  const { title, detail } = errorMessage(error);
  expect(title).toBe('This server needs a valid access token.');
  expect(detail).toContain(description);
  expect(detail).toContain('(401 Unauthorized)');
  expect(detail).toContain('config.json');
});

test('other refusals keep the general wording', () => {
  const error = new ApiRequestError(400, 'http://x.test/records', {
    statusCode: 400,
    statusMessage: 'Bad Request',
    errorDescription: 'rows is too large.',
  });
  expect(errorMessage(error)).toEqual({ title: 'The server refused this request.', detail: 'rows is too large. (400 Bad Request)' });
});
