import { describe, expect, it } from 'vitest';
import type { TemplateItem } from '@berth/contract';
import {
  emptyDeployValues,
  emptyRow,
  firstInvalidStep,
  fromTemplateItem,
  toPayload,
  validateDeploy,
  type DeployFormValues,
} from './form-model';

const valid = (over: Partial<DeployFormValues> = {}): DeployFormValues => ({
  ...emptyDeployValues(),
  name: 'web',
  image: 'nginx:1.27',
  restart_policy: 'unless-stopped',
  ...over,
});

describe('validateDeploy (spec section 5, keyed by form path)', () => {
  it('accepts a minimal valid form', () => {
    expect(validateDeploy(valid())).toEqual({});
  });

  it('requires name, image and restart policy', () => {
    const errors = validateDeploy(emptyDeployValues());
    expect(errors).toMatchObject({
      name: 'Name is required.',
      image: 'Image is required.',
      restart_policy: 'Restart Policy is required.',
    });
    expect(firstInvalidStep(errors)).toBe(0);
  });

  it('requires a container port, allows an empty host port and keeps both within 0-65535', () => {
    expect(validateDeploy(valid({ ports: [emptyRow.ports()] }))).toEqual({
      'ports.0.cport': 'Container port is required.',
    });
    expect(
      validateDeploy(valid({ ports: [{ label: '', host_ip: '', hport: '', cport: '80', proto: 'tcp' }] })),
    ).toEqual({});
    const errors = validateDeploy(
      valid({ ports: [{ label: '', host_ip: '127.0.0.300', hport: '70000', cport: '-1', proto: 'udp' }] }),
    );
    expect(errors['ports.0.host_ip']).toBe('Host IP must be an IPv4 or IPv6 address (empty = all interfaces).');
    expect(errors['ports.0.hport']).toBe('Host port must be a number between 0 and 65535.');
    expect(errors['ports.0.cport']).toBe('Container port must be a number between 0 and 65535.');
    expect(firstInvalidStep(errors)).toBe(1);
  });

  it('requires both halves of volume, env, device and sysctl rows, a label name, and every command entry', () => {
    const errors = validateDeploy(
      valid({
        volumes: [emptyRow.volumes()],
        env: [emptyRow.env()],
        devices: [emptyRow.devices()],
        labels: [emptyRow.labels()],
        sysctls: [emptyRow.sysctls()],
        command: ['sh', ''],
      }),
    );
    // An empty host is an anonymous volume (issue 39 #7); the container path stays required.
    expect(errors).toEqual({
      'volumes.0.container': 'Container path is required.',
      'env.0.name': 'Variable name is required.',
      'env.0.default': 'Value is required.',
      'command.1': 'Command entries are required.',
      'devices.0.container': 'Container device is required.',
      'devices.0.host': 'Host device is required.',
      'labels.0.label': 'Label is required.',
      'sysctls.0.name': 'Sysctl name is required.',
      'sysctls.0.value': 'Sysctl value is required.',
    });
    expect(firstInvalidStep(errors)).toBe(2);
  });

  it('allows a label without a value', () => {
    expect(validateDeploy(valid({ labels: [{ label: 'berth.test', value: '' }] }))).toEqual({});
  });

  it('checks the memory limit notation and CPU cores', () => {
    expect(validateDeploy(valid({ mem_limit: '10x', cpus: 'lots' }))).toEqual({
      mem_limit: 'Memory limit must be a number with b, k, m or g (1000b, 100k, 10m, 1g).',
      cpus: 'CPU cores must be a number such as 0.5 or 2.',
    });
    expect(validateDeploy(valid({ mem_limit: '64m', cpus: '0.5' }))).toEqual({});
  });
});

describe('toPayload', () => {
  it('drops ports under host networking, where the form hides them', () => {
    const v = valid({ network_mode: 'host', ports: [emptyRow.ports()] });
    expect(toPayload(v).ports).toEqual([]);
    expect(validateDeploy(v)).toEqual({});
  });

  it('marks edit mode with the app id', () => {
    expect(toPayload(valid(), 'abc123')).toMatchObject({ edit: true, id: 'abc123' });
    expect(toPayload(valid())).not.toHaveProperty('edit');
  });
});

describe('fromTemplateItem', () => {
  const item: TemplateItem = {
    id: 7,
    template_id: 1,
    type: 1,
    stack: null,
    title: 'Handbrake',
    name: 'handbrake',
    description: '',
    logo: '',
    notes: '',
    image: 'jlesage/handbrake:latest',
    platform: 'linux',
    categories: [],
    command: null,
    restart_policy: null,
    network: 'proxy',
    network_mode: 'bridge',
    ports: [{ label: 'WebUI', host_ip: '127.0.0.1', hport: null, cport: '5800', proto: 'tcp' }],
    volumes: [{ bind: '!config/handbrake', container: '/config' }],
    env: [
      { name: 'PUID', label: 'PUID', default: '!PUID', description: null, options: [] },
      {
        name: 'MODE',
        label: null,
        default: 'b',
        description: null,
        options: [
          { label: 'A', value: 'a' },
          { label: 'B', value: 'b' },
        ],
      },
    ],
    devices: [],
    labels: [],
    sysctls: [],
    cap_add: ['NET_ADMIN'],
    cpus: 2,
    mem_limit: '1g',
    privileged: true,
    interactive: true,
    hostname: 'edge',
  };
  it('keeps variables unsubstituted and turns nulls into empty fields', () => {
    const v = fromTemplateItem(item);
    expect(v.volumes[0]).toEqual({ bind: '!config/handbrake', container: '/config', readonly: false });
    expect(v.env[0]).toEqual({ name: 'PUID', default: '!PUID', label: 'PUID', description: '' });
    expect(v.ports[0]).toEqual({ label: 'WebUI', host_ip: '127.0.0.1', hport: '', cport: '5800', proto: 'tcp' });
    expect(v).toMatchObject({ command: [], cpus: '2', mem_limit: '1g', restart_policy: 'unless-stopped' });
  });
  it('carries select options, privileged, interactive and hostname into the form and the payload (issue 39 #8, #9)', () => {
    const v = fromTemplateItem(item);
    expect(v.env[1]?.options).toEqual([
      { label: 'A', value: 'a' },
      { label: 'B', value: 'b' },
    ]);
    const payload = toPayload(v);
    expect(payload).toMatchObject({ privileged: true, interactive: true, hostname: 'edge' });
    expect(payload.env?.[1]).toEqual({ name: 'MODE', default: 'b', label: null, description: null });
  });
  it('keeps the network when a catalogue names both a network and a mode', () => {
    expect(fromTemplateItem(item)).toMatchObject({ network: 'proxy', network_mode: '' });
  });
});
