import type { Uses } from '../../context';
import type { PolicyGate } from '../policy';
import type { VariablesService } from '../variables/variables';
import { DeployService } from './deploy';
import type { AppRevisions } from '../revisions/app-revisions';

/** One environment's deploys from the form or a template (template variables are shared by every environment). */
export function createDeploy(
  ctx: Uses<'docker' | 'log' | 'registryAuth'>,
  variables: VariablesService,
  policy: PolicyGate,
  appRevisions: AppRevisions,
): DeployService {
  return new DeployService(ctx.docker, variables, ctx.log, policy, appRevisions, ctx.registryAuth);
}
