import { describe, expect, it } from 'vitest';
import type { HealthStatus } from '@berth/contract';
import {
  commandText,
  keyValueLines,
  names,
  portText,
  serviceActionApplies,
  serviceHealth,
  serviceStatus,
  successText,
  volumeRows,
} from './model';
import { yamlProblem } from './yaml-check';

describe('yamlProblem', () => {
  it('reports the line and column of a YAML error before saving', () => {
    expect(yamlProblem('services:\n  web:\n    image: x\n   broken: y\n')).toMatch(/^Line 4, column \d+: /);
    expect(yamlProblem('services:\n\tweb: {}\n')).toMatch(/^Line 2, column 1: Tabs/);
  });
  it('accepts a valid compose file and refuses a non-mapping or an alias bomb', () => {
    expect(yamlProblem('services:\n  web:\n    image: busybox\n')).toBeNull();
    expect(yamlProblem('- a\n')).toMatch(/mapping/);
    const bomb = [
      'a: &a [x,x,x,x,x,x,x,x,x]',
      ...'bcdef'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdef'[i]}`).join(',')}]`),
    ].join('\n');
    expect(yamlProblem(bomb)).toMatch(/alias/i);
  });
});

describe('service fields', () => {
  it('reads volumes as host/container rows from short and long forms', () => {
    expect(volumeRows(['./data:/data:ro', '/only', { type: 'bind', source: '/srv', target: '/mnt' }])).toEqual([
      { host: './data', container: '/data' },
      { host: '', container: '/only' },
      { host: '/srv', container: '/mnt' },
    ]);
  });
  it('shows environment and labels from a list or a map, and networks from a list or a map', () => {
    expect(keyValueLines(['A=1', 'B'])).toEqual(['A=1', 'B']);
    expect(keyValueLines({ A: 1, B: null, C: 'x y' })).toEqual(['A=1', 'B', 'C=x y']);
    expect(names({ front: null, back: { aliases: ['x'] } })).toEqual(['front', 'back']);
    expect(names(['front'])).toEqual(['front']);
  });
  it('shows a command as a list or a string and ports in short or long form', () => {
    expect(commandText(['sh', '-c', 'echo hi'])).toBe('sh -c "echo hi"');
    expect(commandText('sleep 3600')).toBe('sleep 3600');
    expect(portText('8080:80')).toBe('8080:80');
    expect(portText({ published: 8080, target: 80, protocol: 'udp' })).toBe('8080:80/udp');
  });
  it("gives a service's live status from its containers, or 'not created'", () => {
    const detail = {
      containers: [
        {
          id: '1',
          name: 'p_web_1',
          service: 'web',
          state: 'running',
          status: 'Up',
          image: 'x',
          health: 'none' as const,
        },
      ],
    };
    expect(serviceStatus(detail, 'web')).toBe('running');
    expect(serviceStatus(detail, 'db')).toBe('not created');
  });
  it("gives a service's health as its least healthy container's", () => {
    const c = (service: string, health: HealthStatus) => ({
      id: service,
      name: service,
      service,
      state: 'running',
      status: '',
      image: 'x',
      health,
    });
    const detail = {
      containers: [c('web', 'healthy'), c('web', 'unhealthy'), c('db', 'starting'), c('db', 'healthy'), c('q', 'none')],
    };
    expect(serviceHealth(detail, 'web')).toBe('unhealthy');
    expect(serviceHealth(detail, 'db')).toBe('starting');
    expect(serviceHealth(detail, 'q')).toBe('none');
    expect(serviceHealth(detail, 'gone')).toBe('none');
  });
  it('words the success notification', () => {
    expect(successText('media', 'stop')).toBe('media has been stopped.');
    expect(successText('media', 'rm')).toBe('media has been removed.');
  });
});

describe('serviceActionApplies', () => {
  it('offers only the actions that mean something in the service state', () => {
    const offered = (status: string) =>
      (['up', 'start', 'stop', 'restart', 'pull', 'kill', 'rm'] as const).filter((a) =>
        serviceActionApplies(a, status),
      );
    expect(offered('running')).toEqual(['up', 'stop', 'restart', 'pull', 'kill', 'rm']);
    expect(offered('exited')).toEqual(['up', 'start', 'restart', 'pull', 'rm']);
    expect(offered('not created')).toEqual(['up', 'pull']);
    expect(offered('running, exited')).toEqual(['up', 'start', 'stop', 'restart', 'pull', 'kill', 'rm']);
  });
});
