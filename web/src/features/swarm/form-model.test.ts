import { describe, expect, it } from 'vitest';
import { ServiceCreateBody, ServiceUpdateBody } from '@berth/contract';
import { ApiError } from '../../lib/api-client';
import {
  emptyServiceForm,
  formOf,
  isStaleWrite,
  serverFieldErrors,
  serviceFormErrors,
  toCreateBody,
  toUpdateBody,
} from './form-model';

const filled = {
  ...emptyServiceForm,
  name: ' web ',
  image: 'nginx:alpine',
  replicas: 2,
  command: 'sh\n-c\necho hi',
  env: 'A=1\nB=x=y\n',
  ports: '8080:80\n53/udp host',
  constraints: 'node.role==manager',
  labels: 'team=web',
};

describe('service form rules', () => {
  it('names each bad field before anything is sent', () => {
    const e = serviceFormErrors({
      ...emptyServiceForm,
      name: 'bad name',
      ports: '80:eighty',
      env: 'NOVALUE',
      constraints: 'node.role',
    });
    expect(Object.keys(e).sort()).toEqual(['constraints', 'env', 'image', 'name', 'ports']);
    expect(serviceFormErrors(filled)).toEqual({});
  });

  it('turns the lines into the create payload the contract accepts', () => {
    const body = toCreateBody(filled);
    expect(body).toMatchObject({
      name: 'web',
      replicas: 2,
      command: ['sh', '-c', 'echo hi'],
      env: { A: '1', B: 'x=y' },
      ports: [
        { published: 8080, target: 80, protocol: 'tcp', mode: 'ingress' },
        { published: null, target: 53, protocol: 'udp', mode: 'host' },
      ],
      labels: { team: 'web' },
    });
    expect(ServiceCreateBody.safeParse(body).success).toBe(true);
  });

  it('leaves the variables alone on an edit whose environment field is empty', () => {
    const body = toUpdateBody({ ...filled, env: '' }, 7);
    expect(body).not.toHaveProperty('env');
    expect(body).not.toHaveProperty('name');
    expect(body.version).toBe(7);
    expect(ServiceUpdateBody.safeParse(body).success).toBe(true);
  });

  it('sends mounts, resources and policies, and reads them back into the edit form', () => {
    const f = {
      ...filled,
      mounts: [
        { type: 'bind' as const, source: '/srv/data', target: '/data', readOnly: true },
        { type: 'tmpfs' as const, source: 'ignored', target: '/scratch', readOnly: false },
      ],
      resources: { cpuLimit: 0.5, memoryLimitMiB: 64, cpuReservation: '' as const, memoryReservationMiB: 16 },
      restart: { condition: 'on-failure' as const, delaySeconds: 2, maxAttempts: 3, windowSeconds: 60 },
      update: { ...emptyServiceForm.update, parallelism: 2, order: 'start-first' as const },
    };
    const body = toCreateBody(f);
    expect(body.mounts).toEqual([
      { type: 'bind', source: '/srv/data', target: '/data', readOnly: true },
      { type: 'tmpfs', source: '', target: '/scratch', readOnly: false },
    ]);
    expect(body.resources).toEqual({
      cpuLimit: 0.5,
      memoryLimitBytes: 64 * 1024 * 1024,
      cpuReservation: null,
      memoryReservationBytes: 16 * 1024 * 1024,
    });
    expect(ServiceCreateBody.safeParse(body).success).toBe(true);
    const detail = {
      ...{
        id: 'x',
        version: 3,
        name: 'web',
        image: 'nginx',
        mode: 'replicated' as const,
        replicas: { running: 2, desired: 2 },
        ports: [],
        updateStatus: null,
        stack: null,
        labels: {},
      },
      ...{
        createdAt: '',
        updatedAt: '',
        command: [],
        envNames: [],
        networks: [],
        constraints: [],
        secrets: [],
        configs: [],
        canRollback: false,
      },
      mounts: [{ type: 'bind', source: '/srv/data', target: '/data', readOnly: true }],
      resources: {
        cpuLimit: 0.5,
        memoryLimitBytes: 64 * 1024 * 1024,
        cpuReservation: null,
        memoryReservationBytes: 16 * 1024 * 1024,
      },
      restartPolicy: { condition: 'on-failure', delaySeconds: 2, maxAttempts: 3, windowSeconds: 60 },
      updatePolicy: {
        parallelism: 2,
        delaySeconds: 0,
        monitorSeconds: 5,
        failureAction: 'pause',
        order: 'start-first',
      },
    };
    const back = formOf(detail);
    expect(back.mounts).toEqual([f.mounts[0]]);
    expect(back.resources).toEqual(f.resources);
    expect(back.restart).toEqual(f.restart);
    expect(back.update).toEqual(f.update);
  });

  it('names bad mounts and resources by the API path the server uses too', () => {
    const e = serviceFormErrors({
      ...filled,
      mounts: [{ type: 'bind', source: 'relative', target: 'data', readOnly: false }],
      resources: { cpuLimit: 1, memoryLimitMiB: 4, cpuReservation: 2, memoryReservationMiB: '' },
    });
    expect(Object.keys(e).sort()).toEqual([
      'mounts.0.source',
      'mounts.0.target',
      'resources.cpuReservation',
      'resources.memoryLimitBytes',
    ]);
    expect(
      serverFieldErrors({ fields: [{ field: 'mounts.0.target', message: 'The target must be an absolute path.' }] }),
    ).toEqual({ 'mounts.0.target': 'The target must be an absolute path.' });
  });

  it('tells a stale write (the service changed meanwhile) from other failures of an update', () => {
    expect(
      isStaleWrite(new ApiError(409, 'Conflict', 'web was changed meanwhile; reload it and try again.', 'conflict')),
    ).toBe(true);
    // The engine left the swarm: a 409 too, but no reload helps.
    expect(isStaleWrite(new ApiError(409, 'Conflict', 'This engine is not a swarm manager.', 'not_in_swarm'))).toBe(
      false,
    );
    expect(isStaleWrite(new ApiError(400, 'Bad Request', 'The image is empty.', 'validation_error'))).toBe(false);
    expect(isStaleWrite(new Error('offline'))).toBe(false);
    expect(isStaleWrite(null)).toBe(false);
  });
});
