import { describe, expect, it } from 'vitest';
import { ServiceCreateBody, ServiceUpdateBody } from '@berth/contract';
import { emptyServiceForm, serviceFormErrors, toCreateBody, toUpdateBody } from './form-model';

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
    const e = serviceFormErrors({ ...emptyServiceForm, name: 'bad name', ports: '80:eighty', env: 'NOVALUE', constraints: 'node.role' });
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
});
