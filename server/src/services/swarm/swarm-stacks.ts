import fs from 'node:fs/promises';
import path from 'node:path';
import type { ProjectPlan, StackDetail, SwarmStack } from '@berth/contract';
import type { Uses } from '../../context';
import { ProjectActivity } from '../../compose/activity';
import { checkComposeSchema, parseCompose } from '../../compose/document';
import { checkProjectName, gitComposeFile } from '../../compose/paths';
import { stackDeploy, stackRemove, type StackRunner } from '../../compose/stack-cli';
import { composeImages } from '../../compose/docker-config';
import { dockerConfigFor } from '../registries/credentials';
import type { Engine } from '../../docker/engine';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../errors';
import { writeFileAtomic } from '../../lib/atomic-write';
import { STACK_LABEL, toService } from './swarm-spec';
import { checkComposePolicy } from '../policy/compose-policy';
import type { Actor, PolicyGate } from '../policy';

const STACK_FILE = 'docker-stack.yml';
/** The file a deploy runs from until it succeeds (a failed deploy leaves the stored file as it was). */
export const NEXT_STACK_FILE = '.docker-stack.next.yml';

/**
 * Stacks: compose files deployed with the docker CLI's `docker stack deploy` (so the CLI's own
 * translation of compose into services, networks, configs and secrets is used; redoing it on the
 * engine API would be a second, hand-made compose implementation). Files are validated like
 * compose projects and kept in DATA_DIR/stacks/<environment>/<name>/docker-stack.yml (a stack
 * from git: that folder is the checkout, and its marker names the file). One
 * deploy or removal per stack at a time; its output is live for viewers of `activity`.
 */
export class SwarmStacksService {
  readonly activity = new ProjectActivity();
  private readonly closing = new AbortController();

  constructor(
    private readonly ctx: Uses<'onClose' | 'registryAuth', 'cliEnv' | 'composeTimeoutMs' | 'dataDir'>,
    private readonly docker: Engine,
    /** Where the stacks' folders are. */
    readonly root: string,
    private readonly policy: PolicyGate,
    private readonly onRemoved: (name: string) => void = () => {},
  ) {
    ctx.onClose(() => this.closing.abort());
  }

  /** The docker CLI's settings; with `content`, the stored registry credentials its images need (`--with-registry-auth`). */
  private runner(content?: string): StackRunner {
    const runner: StackRunner = {
      env: this.ctx.config.cliEnv,
      timeoutMs: this.ctx.config.composeTimeoutMs,
      signal: this.closing.signal,
      graceMs: 10_000,
    };
    const lookup = this.ctx.registryAuth;
    if (!content || !lookup) return runner;
    // The stack CLI interpolates from its own environment only (no .env).
    const images = composeImages(parseCompose(content).data, this.ctx.config.cliEnv);
    const root = path.join(this.ctx.config.dataDir, '.tmp', 'docker-config');
    return { ...runner, registry: { auths: dockerConfigFor(images, lookup).auths, root } };
  }

  /** The stack's folder (a git-backed stack's checkout). */
  dir(name: string): string {
    checkProjectName(name);
    return path.join(this.root, name);
  }

  /** Where the stack's file is kept: the file a git checkout names, else docker-stack.yml. */
  private async storedFile(name: string): Promise<string> {
    const dir = this.dir(name);
    return (await gitComposeFile(dir)) ?? path.join(dir, STACK_FILE);
  }

  private async readFile(name: string): Promise<string | null> {
    try {
      return await fs.readFile(await this.storedFile(name), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  private async storedNames(): Promise<string[]> {
    const entries = await fs.readdir(this.root, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    // A dot folder is a clone from git on its way in.
    return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
  }

  async list(): Promise<SwarmStack[]> {
    const services = await this.docker.swarm.listServices({ label: [STACK_LABEL] });
    const stacks = new Map<string, SwarmStack>();
    const entry = (name: string) =>
      stacks.get(name) ?? stacks.set(name, { name, services: 0, running: 0, desired: 0, hasFile: false }).get(name)!;
    for (const s of services.map((x) => toService(x))) {
      const e = entry(s.stack!);
      e.services += 1;
      e.running += s.replicas.running;
      e.desired += s.replicas.desired;
    }
    for (const name of await this.storedNames()) entry(name).hasFile = true;
    return [...stacks.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  async get(name: string): Promise<StackDetail> {
    const content = await this.readFile(name);
    const services = (await this.docker.swarm.listServices({ label: [`${STACK_LABEL}=${name}`] })).map((s) =>
      toService(s),
    );
    if (content === null && !services.length) throw new NotFoundError('stack', name);
    return {
      name,
      services: services.length,
      running: services.reduce((n, s) => n + s.replicas.running, 0),
      desired: services.reduce((n, s) => n + s.replicas.desired, 0),
      hasFile: content !== null,
      content,
      serviceList: services.sort((a, b) => a.name.localeCompare(b.name)),
    };
  }

  /** Size, YAML, depth, aliases, the Compose Specification's schema, at least one service; for a new stack, a free name. */
  private async validate(
    name: string,
    content: string,
    mode: 'create' | 'redeploy' | 'stored',
    actor: Actor,
  ): Promise<string> {
    // Relative paths in the file are read from its own folder (in a git checkout, where the repository has it).
    const dir = mode === 'create' ? this.dir(name) : path.dirname(await this.storedFile(name));
    const parsed = parseCompose(content);
    checkComposeSchema(parsed);
    // `docker stack deploy` interpolates with its own environment (no .env) and reads configs/secrets files itself.
    await checkComposePolicy(this.policy, actor, parsed, this.ctx.config.cliEnv, dir, name);
    const { data } = parsed;
    const services = data.services;
    if (!services || typeof services !== 'object' || !Object.keys(services).length) {
      throw new ValidationError('A stack file needs at least one service under services:.', [
        { field: 'content', message: 'No services in the file.' },
      ]);
    }
    if (mode === 'create' && (await this.list()).some((s) => s.name === name))
      throw new ConflictError(`A stack named ${name} already exists; edit it instead.`);
    if (mode === 'redeploy') await this.get(name);
    return dir;
  }

  /** The stored file (a git checkout's) judged as a deploy would judge it: schema, file references, policy. */
  async check(name: string, actor: Actor): Promise<string> {
    const content = await this.readFile(name);
    if (content === null) throw new NotFoundError('stack file', name);
    await this.validate(name, content, 'stored', actor);
    return content;
  }

  /**
   * What a deploy of the stored file would do to each service: create it, update it (`recreate`:
   * its image, command or environment differ from the running service's) or leave it; services
   * the file no longer has are the orphans `--prune` removes.
   */
  async plan(name: string): Promise<ProjectPlan> {
    const content = (await this.readFile(name)) ?? '';
    const data = parseCompose(content).data;
    const wanted = Object.entries((data.services ?? {}) as Record<string, Partial<Record<string, unknown>>>);
    const running = new Map(
      (await this.docker.swarm.listServices({ label: [`${STACK_LABEL}=${name}`] })).map((x) => {
        const s = toService(x);
        return [s.name.slice(name.length + 1), { s, spec: runningSpec(x) }] as const;
      }),
    );
    return {
      services: wanted.map(([service, def = {}]) => {
        const image = typeof def.image === 'string' ? def.image : null;
        const now = running.get(service);
        const action = !now ? 'create' : differs(def, now.spec) ? 'recreate' : 'unchanged';
        return { name: service, action, profiles: [], image, pull: false, build: def.build !== undefined };
      }),
      active_profiles: [],
      orphans: [...running.entries()]
        .filter(([service]) => !wanted.some(([w]) => w === service))
        .map(([service, { s }]) => ({ name: s.name, service })),
      port_conflicts: [],
      missing_binds: [],
      binds_checked: false,
    };
  }

  /** A new stack's file, validated and stored but not deployed (a template's, opened in the editor for review). */
  async save(name: string, content: string, actor: Actor): Promise<StackDetail> {
    const dir = await this.validate(name, content, 'create', actor);
    // Quiet: holds the lock against a deploy meanwhile, without showing as the stack's last output.
    const run = this.activity.begin(name, 'save', null, { quiet: true });
    try {
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(path.join(dir, STACK_FILE), content, { mode: 0o600 });
    } finally {
      run.end(true, null);
    }
    return this.get(name);
  }

  /** Validates, deploys from a side file, and keeps it as the stack's file once deployed. */
  async deploy(
    name: string,
    content: string,
    mode: 'create' | 'redeploy',
    actor: Actor,
  ): Promise<{ name: string; output: string }> {
    const dir = await this.validate(name, content, mode, actor);
    return this.locked(name, 'deploy', async (append) => {
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      const file = mode === 'create' ? path.join(dir, STACK_FILE) : await this.storedFile(name);
      const next = path.join(dir, NEXT_STACK_FILE);
      await writeFileAtomic(next, content, { mode: 0o600 });
      try {
        const output = await stackDeploy(this.runner(content), name, next, dir, append);
        await fs.rename(next, file);
        return { name, output };
      } finally {
        await fs.rm(next, { force: true });
        if (!(await this.readFile(name))) await fs.rm(this.dir(name), { recursive: true, force: true });
      }
    });
  }

  async remove(name: string): Promise<{ removed: string }> {
    const stack = await this.get(name);
    return this.locked(name, 'rm', async (append) => {
      if (stack.services) append(await stackRemove(this.runner(), name));
      await fs.rm(this.dir(name), { recursive: true, force: true });
      this.onRemoved(name);
      return { removed: name };
    });
  }

  /** Holds the stack's lock (a second operation meanwhile is a 409) and publishes the CLI's output as it comes. */
  private async locked<T>(
    name: string,
    action: string,
    fn: (append: (chunk: string) => void) => Promise<T>,
  ): Promise<T> {
    const run = this.activity.begin(name, action);
    try {
      const result = await fn(run.append);
      run.end(true, null);
      return result;
    } catch (err) {
      run.end(
        false,
        err instanceof AppError ? err.message : 'The stack operation failed; the server log has the details.',
      );
      throw err;
    }
  }

  /** On shutdown: running CLI commands get SIGTERM; waits until every stack's lock is free. */
  async shutdown(): Promise<void> {
    this.closing.abort();
    await this.activity.idle(15_000);
  }
}

/** The parts of a running service's spec a plan compares: image (without its pinned digest), command, environment. */
function runningSpec(service: unknown): { image: string; args: string[]; env: string[] } {
  const c =
    (service as { Spec?: { TaskTemplate?: { ContainerSpec?: { Image?: string; Args?: string[]; Env?: string[] } } } })
      .Spec?.TaskTemplate?.ContainerSpec ?? {};
  return { image: (c.Image ?? '').replace(/@sha256:[0-9a-f]{64}$/, ''), args: c.Args ?? [], env: c.Env ?? [] };
}

/** Whether a file's service differs from the running one in what runningSpec compares (a command string is not compared). */
function differs(def: Partial<Record<string, unknown>>, now: ReturnType<typeof runningSpec>): boolean {
  if (typeof def.image === 'string' && def.image !== now.image) return true;
  if (Array.isArray(def.command) && JSON.stringify(def.command.map(String)) !== JSON.stringify(now.args)) return true;
  const e = def.environment;
  const env = Array.isArray(e)
    ? e.map(String)
    : Object.entries((e ?? {}) as Record<string, unknown>).map(([k, v]) => (v === null ? k : `${k}=${String(v)}`));
  return JSON.stringify([...env].sort()) !== JSON.stringify([...now.env].sort());
}
