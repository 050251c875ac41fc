import { describe, expect, it } from 'vitest';
import { setServiceImages } from './image-edit';

describe('setServiceImages (issue 33)', () => {
  const file = `# a comment stays
services:
  web:
    image: "reg.example:5000/team/web:1.0.0" # pinned by hand
    command: ["sleep", "1"]
  db:
    image: \${REGISTRY}/db:1.0
  cache:
    image: reg.example:5000/team/cache:2.1
`;

  it('changes only the plain image values it is asked to, the rest of the file byte for byte', () => {
    const out = setServiceImages(file, {
      web: { from: 'reg.example:5000/team/web:1.0.0', to: 'reg.example:5000/team/web:1.1.0' },
      cache: { from: 'reg.example:5000/team/cache:2.1', to: 'reg.example:5000/team/cache:2.2' },
    });
    expect(out.left).toEqual([]);
    expect(out.content).toBe(file.replace('web:1.0.0', 'web:1.1.0').replace('cache:2.1', 'cache:2.2'));
  });

  it('leaves an image made of variables, or one that no longer says what it did, and names its service', () => {
    const out = setServiceImages(file, {
      db: { from: 'reg.example/db:1.0', to: 'reg.example/db:2.0' },
      web: { from: 'reg.example:5000/team/web:0.9.0', to: 'reg.example:5000/team/web:1.1.0' },
    });
    expect(out).toEqual({ content: file, left: ['db', 'web'] });
  });
});
