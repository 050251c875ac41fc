import { describe, expect, it } from 'vitest';
import { pruneMessage } from './api';

describe('pruneMessage', () => {
  it('counts the removed list and formats the space with a 1024 base', () => {
    expect(
      pruneMessage('images', { ImagesDeleted: [{ Untagged: 'a:1' }, { Deleted: 'sha256:1' }], SpaceReclaimed: 1536 }),
    ).toBe('2 images deleted. Space Reclaimed: 1.5 KB');
    expect(pruneMessage('networks', { NetworksDeleted: [], SpaceReclaimed: 0 })).toBe(
      '0 networks deleted. Space Reclaimed: 0 Bytes',
    );
    expect(pruneMessage('containers', { ContainersDeleted: ['x'], SpaceReclaimed: 65536 })).toBe(
      '1 container deleted. Space Reclaimed: 64 KB',
    );
  });
});
