import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Which features each feature of `featuresDir` imports (any file but tests), by folder name. */
export function featureGraph(featuresDir: string): Map<string, Set<string>> {
  const features = fs
    .readdirSync(featuresDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const graph = new Map<string, Set<string>>();
  for (const feature of features) {
    const uses = new Set<string>();
    for (const file of sourceFiles(path.join(featuresDir, feature))) {
      // preProcessFile finds static imports, re-exports and import() calls alike.
      const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
      for (const { fileName } of importedFiles) {
        if (!fileName.startsWith('.')) continue;
        const target = path.relative(featuresDir, path.resolve(path.dirname(file), fileName)).split(path.sep)[0];
        if (target && target !== feature && features.includes(target)) uses.add(target);
      }
    }
    graph.set(feature, uses);
  }
  return graph;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/**
 * Every chain of imports longer than `max` steps (`a → b → c` is two), each as the features it
 * passes; a cycle counts as endless and is reported once it closes.
 */
export function chainsLongerThan(graph: Map<string, Set<string>>, max: number): string[][] {
  const found: string[][] = [];
  const walk = (chain: string[]) => {
    const last = chain[chain.length - 1]!;
    for (const next of graph.get(last) ?? []) {
      const longer = [...chain, next];
      if (chain.includes(next) || longer.length - 1 > max) found.push(longer);
      else walk(longer);
    }
  };
  for (const feature of graph.keys()) walk([feature]);
  return found;
}
