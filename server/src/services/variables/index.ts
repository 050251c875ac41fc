import type { Uses } from '../../context';
import { VariablesRepo } from '../../db/variables-repo';
import { VariablesService } from './variables';

/** The template `!variables`, shared by every environment. */
export function createVariables(ctx: Uses<'db'>): VariablesService {
  return new VariablesService(new VariablesRepo(ctx.db));
}
