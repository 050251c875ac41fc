import fs from 'node:fs/promises';
import path from 'node:path';
import { interpolate } from './interpolate';

/** docker config.json `auths`: registry key → base64 `user:password`. */
export type DockerAuths = Record<string, { auth: string }>;

/** What a CLI run needs to pull private images: the auths and where their private config may be made. */
export interface RegistryAuths {
  auths: DockerAuths;
  /** A 0700 folder outside every compose and stack folder (DATA_DIR/.tmp/docker-config). */
  root: string;
}

/**
 * Runs `fn` with a private DOCKER_CONFIG: a fresh 0700 folder under `root` holding a config.json
 * (0600) with only `auths`, removed when `fn` settles. The credentials never reach an argument list,
 * a compose folder or the CLI's own config. The CLI still finds its plugins where it did
 * (`cliPluginsExtraDirs`: the cli-plugins of the config it had). Without auths `fn` gets `env` as is.
 */
export async function withDockerConfig<T>(
  registry: RegistryAuths | undefined,
  env: Readonly<Record<string, string>>,
  fn: (env: Readonly<Record<string, string>>) => Promise<T>,
): Promise<T> {
  if (!registry || Object.keys(registry.auths).length === 0) return fn(env);
  await fs.mkdir(registry.root, { recursive: true, mode: 0o700 });
  const dir = await fs.mkdtemp(path.join(registry.root, 'run-'));
  try {
    await fs.chmod(dir, 0o700);
    const before = env.DOCKER_CONFIG ?? (env.HOME ? path.join(env.HOME, '.docker') : null);
    const config = {
      auths: registry.auths,
      ...(before ? { cliPluginsExtraDirs: [path.join(before, 'cli-plugins')] } : {}),
    };
    await fs.writeFile(path.join(dir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
    return await fn({ ...env, DOCKER_CONFIG: dir });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * The image references of a compose file's services, interpolated with `env` (a service whose image
 * cannot be interpolated, or has none, is left out: it is built, or compose will say what is wrong).
 */
export function composeImages(data: Record<string, unknown>, env: Readonly<Record<string, string>>): string[] {
  const services = data.services;
  if (!services || typeof services !== 'object') return [];
  const images = new Set<string>();
  for (const svc of Object.values(services as Record<string, unknown>)) {
    const image = svc && typeof svc === 'object' ? (svc as { image?: unknown }).image : undefined;
    if (typeof image !== 'string' || !image) continue;
    try {
      images.add(interpolate(image, env));
    } catch {
      // A required variable that is missing: compose refuses the run itself.
    }
  }
  return [...images];
}
