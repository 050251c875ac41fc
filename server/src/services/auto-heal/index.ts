import type { Uses } from '../../context';
import { AutoHealRepo } from '../../db/auto-heal-repo';
import type { EventHistory } from '../events/event-history';
import { AutoHealDefaults, AutoHealService, type AutoHealDeps } from './auto-heal';

export { AutoHealDefaults, AutoHealService } from './auto-heal';

/** The global auto-heal default (one for every environment). */
export function createAutoHealDefaults(ctx: Uses<'db'>): AutoHealDefaults {
  return new AutoHealDefaults(new AutoHealRepo(ctx.db));
}

/** One environment's auto-heal, following its kept engine events from now on. */
export function createAutoHeal(
  ctx: Uses<'db' | 'docker' | 'log', 'containerName' | 'hostname'>,
  env: string,
  history: EventHistory,
  deps: Omit<AutoHealDeps, 'note'>,
): AutoHealService {
  const service = new AutoHealService(ctx, env, new AutoHealRepo(ctx.db), {
    ...deps,
    note: (e) => history.note(e),
  });
  service.start((fn) => history.onRecorded(fn));
  return service;
}
