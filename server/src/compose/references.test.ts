import { describe, expect, it } from 'vitest';
import { checkFileReferences } from './references';
import { ValidationError } from '../errors';

const refused = (data: Record<string, unknown>, env: Record<string, string> = {}) => {
  try {
    checkFileReferences(data, env);
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
        services: {
          web: {
            env_file: ['.env', 'conf/app.env'],
            build: { context: '.', dockerfile: 'Dockerfile' },
            extends: { file: 'base.yaml', service: 'x' },
          },
        },
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
    ).toEqual([
      'include[0]',
      'services.web.extends.file',
      'services.web.env_file',
      'services.web.build.context',
      'secrets.s.file',
      'configs.c.file',
    ]);
  });

  it('refuses remote includes and home-relative paths', () => {
    expect(
      refused({ include: [{ path: 'https://example.invalid/x.yaml' }], services: { a: { env_file: '~/.env' } } }),
    ).toEqual(['include[0].path', 'services.a.env_file']);
  });

  it('judges paths after interpolation with the given environment', () => {
    const svc = (env_file: string) => ({ services: { a: { env_file } } });
    expect(refused(svc('${X:-/etc/shadow}'))).toEqual(['services.a.env_file']);
    expect(refused(svc('${X-/etc/shadow}'), { X: 'ok.env' })).toBeNull();
    expect(refused(svc('${X:+/etc/shadow}'), { X: '1' })).toEqual(['services.a.env_file']);
    expect(refused(svc('$HOME/.env'), { HOME: '/root' })).toEqual(['services.a.env_file']);
    expect(refused(svc('${DIR}/../../x'), { DIR: 'conf' })).toEqual(['services.a.env_file']);
    expect(refused(svc('${A:-${B:-/etc/x}}'))).toEqual(['services.a.env_file']);
    expect(refused(svc('$$HOME/x'))).toBeNull();
    expect(refused(svc('${UNSET}.env'))).toBeNull();
    // forms compose would refuse or read differently are refused, never guessed
    expect(refused(svc('${X'))).toEqual(['services.a.env_file']);
    expect(refused(svc('${X:?must be set}/a'))).toEqual(['services.a.env_file']);
    expect(refused(svc('a$'))).toEqual(['services.a.env_file']);
  });
});
