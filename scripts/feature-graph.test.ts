import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainsLongerThan, featureGraph } from './feature-graph';

const FEATURES = path.resolve(import.meta.dirname, '..', 'web', 'src', 'features');
const graphOf = (edges: Record<string, string[]>) =>
  new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));

// Issue 31: a web feature may use another (through its index.ts), which may use a third, no further:
// what more features need belongs in web/src/components or web/src/lib.
describe('the import graph between web features', () => {
  it('has no chain longer than two steps and no cycle', () => {
    const graph = featureGraph(FEATURES);
    expect(graph.size).toBeGreaterThan(10);
    expect(chainsLongerThan(graph, 2).map((chain) => chain.join(' → '))).toEqual([]);
  });

  it('finds the imports a feature makes of another', () => {
    // deploy's form reads an app, an image and networks to fill itself.
    expect([...featureGraph(FEATURES).get('deploy')!]).toEqual(expect.arrayContaining(['apps', 'images']));
  });

  it('reports a chain of three steps and a cycle, not a chain of two', () => {
    expect(chainsLongerThan(graphOf({ a: ['b'], b: ['c'], c: [] }), 2)).toEqual([]);
    expect(chainsLongerThan(graphOf({ a: ['b'], b: ['c'], c: ['d'], d: [] }), 2)).toEqual([['a', 'b', 'c', 'd']]);
    expect(chainsLongerThan(graphOf({ a: ['b'], b: ['a'] }), 2)).toEqual([
      ['a', 'b', 'a'],
      ['b', 'a', 'b'],
    ]);
  });
});
