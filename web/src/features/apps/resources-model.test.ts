import { describe, expect, it } from 'vitest';
import type { App } from '@berth/contract';
import { resourcesBody, resourcesForm } from './resources-model';

const MiB = 1024 * 1024;
const app = (HostConfig: object) => ({ HostConfig }) as unknown as App;

describe('resources editor', () => {
  it('reads the engine values and sends only what changed, memory in bytes', () => {
    const before = resourcesForm(
      app({ NanoCpus: 5e8, Memory: 64 * MiB, MemorySwap: -1, PidsLimit: null, RestartPolicy: { Name: '' } }),
    );
    expect(before).toMatchObject({ cpus: 0.5, memoryMiB: 64, swapMiB: -1, pidsLimit: 0, restart: 'no' });
    expect(resourcesBody(before, before)).toBeNull();
    expect(resourcesBody(before, { ...before, memoryMiB: 128, restart: 'on-failure', retries: 2 })).toEqual({
      memory: 128 * MiB,
      restart_policy: { name: 'on-failure', maximum_retry_count: 2 },
    });
  });
});
