import { LOCAL_ENVIRONMENT } from '@berth/contract';
import type { AppContext } from '../../context';
import { EnvironmentsRepo } from '../../db/environments-repo';
import { RegistriesRepo } from '../../db/registries-repo';
import { deriveKey, open, seal } from '../../lib/secret-box';
import { RegistryCredentials } from './credentials';
import { RegistriesService } from './registries';
import { RegistryTagLister } from './registry-tags';

export {
  dockerConfigFor,
  imageRegistryHost,
  normalizeRegistryHost,
  RegistryCredentials,
  type RegistryAuth,
  type RegistryAuthLookup,
} from './credentials';

/**
 * Registry credentials (issue 33). Passwords and tokens are sealed under a key of their own,
 * derived from the signing key like the environments' secrets. `credentials` chooses one for an
 * image reference; `bind` gives an environment's context its lookup (`ctx.registryAuth`), which every
 * pull, update check, compose run and swarm call of that environment uses, and its tag lists
 * (`ctx.registryTags`, for newer versions by tag).
 */
export function createRegistries(ctx: AppContext, signingKey: Uint8Array) {
  const key = deriveKey(signingKey, 'registries');
  const box = { seal: (plain: string) => seal(key, plain), open: (sealed: string) => open(key, sealed) };
  const repo = new RegistriesRepo(ctx.db);
  const credentials = new RegistryCredentials(repo, box.open);
  // The base context is the local environment's (and self-update's); other environments override it.
  const tags = new RegistryTagLister(credentials, { allowLoopback: true });
  ctx.registryAuth = credentials.lookup(LOCAL_ENVIRONMENT);
  ctx.registryTags = tags.forEnvironment(LOCAL_ENVIRONMENT);
  const environments = new EnvironmentsRepo(ctx.db);
  const admin = new RegistriesService(repo, box, {
    environmentIds: () => [LOCAL_ENVIRONMENT, ...environments.list().map((e) => e.id)],
    allowLoopback: true,
  });
  return {
    admin,
    credentials,
    /** `envCtx` with the lookup of environment `id` (the base context already has local's). */
    bind(id: string, envCtx: AppContext): AppContext {
      if (id !== LOCAL_ENVIRONMENT && envCtx !== ctx) {
        Object.defineProperty(envCtx, 'registryAuth', { value: credentials.lookup(id), enumerable: true });
        Object.defineProperty(envCtx, 'registryTags', { value: tags.forEnvironment(id), enumerable: true });
      }
      return envCtx;
    },
  };
}
