import { describe, expect, it } from 'vitest';
import type { ServiceSpec } from '../../docker/swarm-engine';
import { applyForm } from './swarm-spec';

const ids = { secrets: new Map<string, string>(), configs: new Map<string, string>() };

describe('applyForm', () => {
  it('keeps the engine settings an edit does not show (mount options, pids limit, failure ratio)', () => {
    const base: ServiceSpec = {
      Name: 'web',
      TaskTemplate: {
        ContainerSpec: {
          Image: 'busybox',
          Mounts: [{ Type: 'tmpfs', Target: '/scratch', TmpfsOptions: { SizeBytes: 1024 } }],
        },
        Resources: { Limits: { Pids: 50, MemoryBytes: 1 }, Reservations: { NanoCPUs: 5 } },
      },
      Mode: { Replicated: { Replicas: 1 } },
      UpdateConfig: { Parallelism: 1, MaxFailureRatio: 0.2 },
    };
    const spec = applyForm(
      base,
      {
        mounts: [
          { type: 'tmpfs', source: '', target: '/scratch', readOnly: false },
          { type: 'volume', source: 'data', target: '/data', readOnly: true },
        ],
        resources: { memoryLimitBytes: 64 * 1024 * 1024, cpuReservation: null },
        updatePolicy: {
          parallelism: 2,
          delaySeconds: 0,
          monitorSeconds: 5,
          failureAction: 'pause',
          order: 'start-first',
        },
      },
      ids,
    );
    expect(spec.TaskTemplate.ContainerSpec.Mounts).toEqual([
      { Type: 'tmpfs', Target: '/scratch', ReadOnly: false, TmpfsOptions: { SizeBytes: 1024 } },
      { Type: 'volume', Source: 'data', Target: '/data', ReadOnly: true },
    ]);
    expect(spec.TaskTemplate.Resources).toEqual({
      Limits: { Pids: 50, MemoryBytes: 64 * 1024 * 1024 },
      Reservations: {},
    });
    expect(spec.UpdateConfig).toMatchObject({ Parallelism: 2, Order: 'start-first', MaxFailureRatio: 0.2 });
  });

  it('names the mount whose bind source is not an absolute path', () => {
    const base: ServiceSpec = { Name: 'web', TaskTemplate: { ContainerSpec: { Image: 'busybox' } } };
    const mounts = [
      { type: 'tmpfs' as const, source: '', target: '/tmp', readOnly: false },
      { type: 'bind' as const, source: 'relative/path', target: '/data', readOnly: false },
    ];
    expect(() => applyForm(base, { mounts }, ids)).toThrow(
      expect.objectContaining({
        statusCode: 400,
        fields: [{ field: 'mounts.1.source', message: 'A bind mount needs an absolute source path.' }],
      }),
    );
  });
});
