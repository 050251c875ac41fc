import fs from 'node:fs';
import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { GENERATED_VALIDATOR, validatorSource } from './generate';
import { composeSchema, composeSchemaProblem, descriptionAt, keysAt, locate } from './index';

const FILE = [
  'x-base: &base', //                              1
  '  restart: always', //                          2
  '  ports:', //                                   3
  '    - "80:80"', //                              4
  'services:', //                                  5
  '  web:', //                                     6
  '    <<: *base', //                              7
  '    image: nginx', //                           8
  '    healthcheck: {test: [CMD, "true"], retries: "${R:-3}"}', // 9
  '',
].join('\n');

const parse = (text: string) => {
  const lines = new LineCounter();
  const doc = parseDocument(text, { merge: true, lineCounter: lines });
  const at = (path: (string | number)[], key = false) => {
    const span = locate(doc, path, { key });
    return span && lines.linePos(span.from);
  };
  return { doc, data: doc.toJS() as unknown, at };
};

describe('locate: a path of the resolved data to where it is written', () => {
  it('finds values, keys, list items and flow entries', () => {
    const { at } = parse(FILE);
    expect(at(['services', 'web', 'image'])).toEqual({ line: 8, col: 12 });
    expect(at(['services', 'web', 'image'], true)).toEqual({ line: 8, col: 5 });
    expect(at(['services', 'web', 'healthcheck', 'test', 1])).toEqual({ line: 9, col: 31 });
  });

  it('follows merge keys and aliases to the text the value comes from', () => {
    const { at } = parse(FILE);
    expect(at(['services', 'web', 'restart'])).toEqual({ line: 2, col: 12 });
    expect(at(['services', 'web', 'ports', 0])).toEqual({ line: 4, col: 7 });
  });

  it('stops at the deepest node the text has', () => {
    const { at } = parse(FILE);
    expect(at(['services', 'web', 'nothing', 'here'])).toEqual({ line: 7, col: 5 });
  });
});

describe('composeSchemaProblem', () => {
  it('accepts interpolated values, x- extensions and merged anchors, and says where a value has the wrong shape', () => {
    const ok = parse(FILE);
    expect(composeSchemaProblem(ok.doc, ok.data)).toBeNull();
    const bad = parse(FILE.replace('image: nginx', 'image: nginx\n    deploy: {replicas: [2]}'));
    const problem = composeSchemaProblem(bad.doc, bad.data)!;
    expect(problem).toMatchObject({ path: 'services.web.deploy.replicas', message: 'must be a whole number' });
    expect(bad.at(['services', 'web', 'deploy', 'replicas'])).toEqual({ line: 9, col: 24 });
  });
});

describe('the schema behind completion and hover', () => {
  it('has the current specification keys where they belong, with descriptions', () => {
    expect(keysAt(composeSchema(), [])).toEqual(expect.arrayContaining(['name', 'include', 'services', 'models']));
    expect(keysAt(composeSchema(), ['services', 'web'])).toEqual(
      expect.arrayContaining(['develop', 'healthcheck', 'profiles', 'post_start']),
    );
    expect(keysAt(composeSchema(), ['services', 'web', 'healthcheck'])).toEqual(
      expect.arrayContaining(['test', 'start_interval']),
    );
    expect(keysAt(composeSchema(), ['services', 'web', 'ports', 0])).toEqual(
      expect.arrayContaining(['target', 'published', 'app_protocol']),
    );
    expect(keysAt(composeSchema(), ['services'])).toEqual([]);
    expect(descriptionAt(composeSchema(), ['services', 'web', 'restart'])).toMatch(/^Restart policy/);
    expect(descriptionAt(composeSchema(), ['services', 'web', 'healthcheck', 'interval'])).toMatch(/between checks/);
  });

  it('ships a generated validator made from the schema as it is now (npm run generate -w contract)', () => {
    expect(fs.readFileSync(GENERATED_VALIDATOR, 'utf8')).toBe(validatorSource());
  });
});
