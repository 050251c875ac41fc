import { notificationsStore } from '@mantine/notifications';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { makeQueryClient } from './query-client';

const shown = () => notificationsStore.getState().notifications.map((n) => ({ color: n.color, message: n.message }));

async function fail(meta?: { notifyError?: boolean }) {
  const client = makeQueryClient();
  const mutation = client.getMutationCache().build(client, {
    mutationFn: () => Promise.reject(new ApiError(409, 'Conflict', 'The name is taken.', 'conflict')),
    meta,
  });
  await expect(mutation.execute(undefined)).rejects.toThrow('Conflict: The name is taken.');
}

describe('makeQueryClient', () => {
  afterEach(() => notificationsStore.updateState((s) => ({ ...s, notifications: [], queue: [] })));

  it('notifies a failed mutation once, in the spec format', async () => {
    await fail();
    expect(shown()).toEqual([{ color: 'red', message: 'Conflict: The name is taken.' }]);
  });

  it('leaves a mutation that opts out to show its error itself', async () => {
    await fail({ notifyError: false });
    expect(shown()).toEqual([]);
  });
});
