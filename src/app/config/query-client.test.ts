import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ApiRequestError, NetworkError } from '../../client/errors';
import { createQueryClient } from './query-client';

/** Runs one query through an observer (as a component would) until it settles; how many times its function ran. */
async function settle(fail: () => Error | undefined) {
  const client = createQueryClient();
  let calls = 0;
  const observer = new QueryObserver(client, {
    queryKey: ['test'],
    queryFn: async () => {
      calls += 1;
      const error = fail();
      if (error) throw error;
      return calls;
    },
  });
  const result = await new Promise<ReturnType<typeof observer.getCurrentResult>>((resolve) => {
    const unsubscribe = observer.subscribe((current) => {
      if (current.status === 'pending' || current.isFetching) return;
      unsubscribe();
      resolve(current);
    });
  });
  return { calls, result, client };
}

describe('createQueryClient', () => {
  it('does not ask again after an error status: the same request is answered the same', async () => {
    const { calls, result } = await settle(() => new ApiRequestError(400, 'http://records.test/api', undefined));
    expect(result.status).toBe('error');
    expect(calls).toBe(1);
  });

  it('asks once more after a dropped connection, and no more', async () => {
    const { calls, result } = await settle(() => new NetworkError('http://records.test/api'));
    expect(result.status).toBe('error');
    expect(calls).toBe(2);
  });

  it('keeps an answer fresh for a minute (records change only on import)', async () => {
    const { result, client } = await settle(() => undefined);
    expect(result.data).toBe(1);
    expect(
      client
        .getQueryCache()
        .find({ queryKey: ['test'] })
        ?.isStale(),
    ).toBe(false);
  });
});
