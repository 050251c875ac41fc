import { describe, expect, it } from 'vitest';
import { composeServiceKeys, composeTopLevelKeys } from '@berth/contract/compose-schema';
import { composeKeysAt, keyPathAt } from './compose-completion';
import { composeDiagnostics } from './compose-lint';

describe('composeKeysAt: the schema keys that fit at the cursor', () => {
  it('offers the top-level keys at the margin and a service key inside a service, nothing where names or values go', () => {
    expect(composeKeysAt(['servi'])).toEqual(composeTopLevelKeys());
    expect(composeKeysAt(['services:', '  web:', '    image: x', '', '    # note', '    res'])).toEqual(
      composeServiceKeys(),
    );
    expect(composeKeysAt(['services:', '  we'])).toBeNull();
    expect(composeKeysAt(['services:', '  web:', '    environment:', '      A'])).toBeNull();
    expect(composeKeysAt(['services:', '  web:', '    image: bus'])).toBeNull();
  });

  it('offers the keys of nested mappings and of list items', () => {
    expect(composeKeysAt(['volumes:', '  data:', '    dri'])).toEqual(
      expect.arrayContaining(['driver', 'driver_opts', 'external']),
    );
    expect(composeKeysAt(['services:', '  web:', '    healthcheck:', '      test: x', '      '])).toEqual(
      expect.arrayContaining(['interval', 'start_interval']),
    );
    const portKeys = expect.arrayContaining(['target', 'published', 'protocol']);
    expect(composeKeysAt(['services:', '  web:', '    ports:', '      - "80:80"', '      - ta'])).toEqual(portKeys);
    expect(composeKeysAt(['services:', '  web:', '    ports:', '      - target: 80', '        pu'])).toEqual(portKeys);
  });
});

describe('keyPathAt: the key under the pointer, for hover', () => {
  const text = 'services:\n  web:\n    restart: always\n    ports:\n      - target: 80\n';
  it('gives the path of a key, through list items, and nothing on a value', () => {
    expect(keyPathAt(text, text.indexOf('restart') + 2)?.path).toEqual(['services', 'web', 'restart']);
    expect(keyPathAt(text, text.indexOf('target') + 1)?.path).toEqual(['services', 'web', 'ports', 0, 'target']);
    expect(keyPathAt(text, text.indexOf('always') + 1)).toBeNull();
  });
});

describe('composeDiagnostics: inline marks before saving', () => {
  it('marks the value that breaks the schema, and YAML errors, where they are written', () => {
    const text = 'services:\n  web:\n    image: x\n    ports: {a: 1}\n';
    expect(composeDiagnostics(text)).toEqual([
      expect.objectContaining({
        from: text.indexOf('{a'),
        to: text.indexOf('{a') + '{a: 1}'.length,
        message: 'services.web.ports: must be a list',
      }),
    ]);
    expect(composeDiagnostics('services:\n  web:\n    image: x\n   broken: y\n')[0]).toMatchObject({ source: 'YAML' });
    expect(
      composeDiagnostics(
        'x-a: &a {restart: always}\nservices:\n  web:\n    <<: *a\n    image: x\n    ports: ["${P:-80}:80"]\n',
      ),
    ).toEqual([]);
  });
});
