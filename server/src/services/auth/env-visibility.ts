import type { App, ComposeService, ImageDetail, Project, ProjectDetail, StackDetail } from '@berth/contract';
import { parseCompose, redactEnvironment } from '../../compose/document';
import { MASK, maskEnvValues } from '../../lib/env-mask';

/*
 * Each response that carries environment values, as a role that may not read them (a viewer,
 * see seesEnvValues) gets it: names kept, values masked. One function per response type; routes
 * apply it through envShownTo (plugins/auth). Nothing here changes what it is given.
 */

/** App details and update checks: `Config.Env` (`NAME=value` strings). */
export const maskAppEnv = <T extends App>(app: T): T =>
  app.Config.Env ? { ...app, Config: { ...app.Config, Env: maskEnvValues(app.Config.Env) } } : app;

/**
 * Image details: the image's own `ENV` lines. Usually harmless (PATH, versions), but a locally
 * built image can bake a token in, and one rule ("a viewer never reads environment values") is
 * simpler to trust than a guess about which values are secret.
 */
export const maskImageEnv = (image: ImageDetail): ImageDetail => {
  const out: ImageDetail & { Config?: { Env?: string[] | null } } = { ...image };
  if (image.ContainerConfig.Env)
    out.ContainerConfig = { ...image.ContainerConfig, Env: maskEnvValues(image.ContainerConfig.Env) };
  // The engine's own copy of the config travels in the loose detail too.
  const raw = (image as { Config?: { Env?: string[] | null } }).Config;
  if (raw?.Env) out.Config = { ...raw, Env: maskEnvValues(raw.Env) };
  return out;
};

const maskService = (s: ComposeService): ComposeService =>
  s.environment ? { ...s, environment: maskEnvValues(s.environment) } : s;

/** A project in the list: each service's `environment`. */
export const maskProjectEnv = <T extends Project>(project: T): T => ({
  ...project,
  services: Object.fromEntries(Object.entries(project.services).map(([name, s]) => [name, maskService(s)])),
});
export const maskProjectsEnv = (projects: Project[]): Project[] => projects.map(maskProjectEnv);

/** What a viewer reads instead of a file whose values cannot be found to mask them (broken YAML, too big). */
export const HIDDEN_FILE =
  '# Berth hides this file from your role: it cannot be read as YAML, so its environment values cannot be masked.\n';

/**
 * A compose or stack file with every `environment:` value masked (list and mapping forms, through
 * anchors and merge keys; comments dropped), by the same redaction as support bundles.
 */
export function maskFileEnv(content: string): string {
  if (content.trim() === '') return content;
  try {
    return redactEnvironment(parseCompose(content));
  } catch {
    // Masking needs the YAML; without it nothing of the file is shown rather than a guess.
    return HIDDEN_FILE;
  }
}

/** Project details: the services' `environment` and the file content. */
export const maskProjectDetailEnv = (project: ProjectDetail): ProjectDetail => ({
  ...maskProjectEnv(project),
  content: maskFileEnv(project.content),
});

/** Stack details: the stack file (swarm service details carry variable names only already). */
export const maskStackEnv = (stack: StackDetail): StackDetail =>
  stack.content === null ? stack : { ...stack, content: maskFileEnv(stack.content) };

/** Values shorter than this are left alone: masking every "1" or "on" would garble the text, not protect it. */
const MIN_MASKED_VALUE = 4;

/**
 * `value` (any JSON) with every occurrence of the given secret values replaced by the mask, in
 * every string it holds: what compose derived from a project's .env (interpolated image names,
 * paths, CLI output) read by a role that may not see the .env's values.
 */
export function maskValuesIn<T>(value: T, secrets: readonly string[]): T {
  const kept = [...new Set(secrets)].filter((s) => s.length >= MIN_MASKED_VALUE).sort((a, b) => b.length - a.length);
  if (!kept.length) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return kept.reduce((s, secret) => s.split(secret).join(MASK), v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
