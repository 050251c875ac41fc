import { describe, expect, it } from 'vitest';
import { environmentOfHash, hashInEnvironment } from './environment';

describe('environment routes', () => {
  it('reads the environment from #/e/{id}/…, the spec routes meaning local', () => {
    expect(environmentOfHash('#/e/build-2/apps/web')).toBe('build-2');
    expect(environmentOfHash('#/e/x')).toBe('x');
    expect(environmentOfHash('#/apps')).toBe('local');
    expect(environmentOfHash('#/engine/x')).toBe('local');
  });

  it('moves the same page to another environment', () => {
    expect(hashInEnvironment('#/e/a/apps/web/logs', 'b')).toBe('#/e/b/apps/web/logs');
    expect(hashInEnvironment('#/e/a/apps', 'local')).toBe('#/apps');
    expect(hashInEnvironment('#/projects', 'b')).toBe('#/e/b/projects');
    expect(hashInEnvironment('', 'b')).toBe('#/e/b/');
  });
});
