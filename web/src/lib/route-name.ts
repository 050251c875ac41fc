import type { UIMatch } from 'react-router-dom';

/** Each route carries `handle: { name }`; the deepest named match names the screen. */
export interface RouteHandle {
  name: string;
}

export function routeName(matches: readonly UIMatch[]): string {
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle as RouteHandle | undefined;
    if (handle?.name) return handle.name;
  }
  return 'Berth';
}
