import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { START_ENV, START_FLAGS } from './start-command';

// The container image and `npm start` run the same bundle; they must run it with the same flags.
describe('the start command', () => {
  const dockerfile = fs.readFileSync(path.resolve(import.meta.dirname, '..', 'Dockerfile'), 'utf8');

  it("the Dockerfile's CMD passes node the start script's flags", () => {
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
    expect(cmd[0]).toBe('node');
    expect(cmd.filter((w) => w.startsWith('--'))).toEqual(START_FLAGS);
    expect(START_FLAGS).toContain('--optimize-for-size');
  });

  it("the Dockerfile's ENV sets the start script's allocator settings", () => {
    // Every ENV of the final stage (after the last FROM).
    const final = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    const env = Object.fromEntries(
      [...final.matchAll(/^ENV (.*)$/gm)]
        .flatMap((m) => m[1]!.split(/\s+/))
        .map((w) => w.split('=') as [string, string]),
    );
    expect(env).toMatchObject(START_ENV);
    expect(START_ENV).toHaveProperty('MALLOC_ARENA_MAX');
  });
});
