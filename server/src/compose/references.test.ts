import { describe, expect, it } from 'vitest';
import { checkFileReferences } from './references';
import { ValidationError } from '../errors';

const refused = (data: Record<string, unknown>) => {
  try {
    checkFileReferences(data);
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).fields?.map((f) => f.field) ?? [];
  }
  return null;
};

describe('compose file references', () => {
  it('accepts files inside the project folder', () => {
    expect(
      refused({
        include: ['./other.yaml'],
        services: { web: { env_file: ['.env', 'conf/app.env'], build: { context: '.', dockerfile: 'Dockerfile' }, extends: { file: 'base.yaml', service: 'x' } } },
        secrets: { s: { file: './secret.txt' } },
      }),
    ).toBeNull();
  });

  it('refuses include, extends, env_file, build and secrets that leave the folder', () => {
    expect(
      refused({
        include: ['../../../etc/passwd'],
        services: { web: { extends: { file: '/etc/x' }, env_file: '/etc/shadow', build: { context: '/' } } },
        secrets: { s: { file: '/root/.ssh/id_rsa' } },
        configs: { c: { file: '../x' } },
      }),
    ).toEqual(['include[0]', 'services.web.extends.file', 'services.web.env_file', 'services.web.build.context', 'secrets.s.file', 'configs.c.file']);
  });

  it('refuses remote includes and home-relative paths', () => {
    expect(refused({ include: [{ path: 'https://example.invalid/x.yaml' }], services: { a: { env_file: '~/.env' } } })).toEqual([
      'include[0].path',
      'services.a.env_file',
    ]);
  });
});
