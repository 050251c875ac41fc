import type { Engine, Filters } from '../../docker/engine';
import { bareName } from '../../docker/names';

/** The names of the containers (apps) a filter finds, e.g. `{ volume: [name] }`; empty when the engine cannot tell. */
export async function containerNames(engine: Engine, filters: Filters): Promise<string[]> {
  try {
    const list = await engine.listContainers({ all: true, filters });
    return list.map((c) => bareName(c.Names?.[0] ?? c.Id.slice(0, 12)));
  } catch {
    // Only used to word a refusal better; the refusal itself still stands.
    return [];
  }
}

/** "app web-1" or "apps web-1, web-2". */
export function appsPhrase(names: string[]): string {
  return `${names.length === 1 ? 'app' : 'apps'} ${names.join(', ')}`;
}
