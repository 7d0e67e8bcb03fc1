import { describe, expect, test } from 'vitest';
import { ApiRequestError } from '../../client/errors';
import { fieldOfError, serverFieldError } from './field-errors';

describe('fieldOfError', () => {
  const names = ['q', 'publication_date_start', 'publication_date_end', 'rows', 'sort', 'order'];

  test('the parameter named first wins; names match whole words only', () => {
    expect(fieldOfError('publication_date_start must not be after publication_date_end.', names)).toBe('publication_date_start');
    expect(fieldOfError("rows must be a whole number from 1 to 1,000; got '5000'.", names)).toBe('rows');
    expect(fieldOfError('sort must be one of relevance, title (optionally followed by asc or desc).', names)).toBe('sort');
    expect(fieldOfError('Something broke.', names)).toBeUndefined();
    expect(fieldOfError('sorting order_by is unknown', ['sort', 'order'])).toBeUndefined();
  });
});

describe('serverFieldError', () => {
  const error = (description: string, status = 400) =>
    new ApiRequestError(status, 'http://x.test/r', { statusCode: status, statusMessage: 'Bad Request', errorDescription: description });

  test('only a 400 about a parameter that was sent and is in the form', () => {
    expect(serverFieldError(error('rows must be a whole number'), ['q', 'rows'], ['q', 'rows'])).toEqual({
      field: 'rows',
      description: 'rows must be a whole number',
    });
    expect(serverFieldError(error("Unknown parameter 'qq'. Did you mean 'q'?"), ['q'], ['qq'])).toEqual({
      field: undefined,
      description: "Unknown parameter 'qq'. Did you mean 'q'?",
    });
    expect(serverFieldError(error('rows broke', 500), ['rows'], ['rows'])).toBeUndefined();
    expect(serverFieldError(new Error('x'), ['rows'], ['rows'])).toBeUndefined();
  });
});
