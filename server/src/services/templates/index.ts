import type { Uses } from '../../context';
import { TemplatesRepo } from '../../db/templates-repo';
import { TemplatesService } from './templates';

/** The template sources and their items; catalogues are fetched as Berth (its version in the user agent). */
export function createTemplates(
  ctx: Uses<'db' | 'version', 'templateFetchAllowLoopback' | 'templateFetchTimeoutMs'>,
): TemplatesService {
  return new TemplatesService(new TemplatesRepo(ctx.db), {
    allowLoopback: ctx.config.templateFetchAllowLoopback,
    fetchTimeoutMs: ctx.config.templateFetchTimeoutMs,
    userAgent: `Berth/${ctx.version}`,
  });
}
