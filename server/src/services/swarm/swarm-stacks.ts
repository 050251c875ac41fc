import fs from 'node:fs/promises';
import path from 'node:path';
import type { StackDetail, SwarmStack } from '@berth/contract';
import type { Uses } from '../../context';
import { ProjectActivity } from '../../compose/activity';
import { checkComposeSchema, parseCompose } from '../../compose/document';
import { checkProjectName } from '../../compose/paths';
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
const NEXT_FILE = '.docker-stack.next.yml';

/**
 * Stacks: compose files deployed with the docker CLI's `docker stack deploy` (so the CLI's own
 * translation of compose into services, networks, configs and secrets is used; redoing it on the
 * engine API would be a second, hand-made compose implementation). Files are validated like
 * compose projects and kept in DATA_DIR/stacks/<environment>/<name>/docker-stack.yml. One
 * deploy or removal per stack at a time; its output is live for viewers of `activity`.
 */
export class SwarmStacksService {
  readonly activity = new ProjectActivity();
  private readonly closing = new AbortController();

  constructor(
    private readonly ctx: Uses<'onClose' | 'registryAuth', 'cliEnv' | 'composeTimeoutMs' | 'dataDir'>,
    private readonly docker: Engine,
    private readonly root: string,
    private readonly policy: PolicyGate,
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

  private dir(name: string): string {
    checkProjectName(name);
    return path.join(this.root, name);
  }

  private async readFile(name: string): Promise<string | null> {
    try {
      return await fs.readFile(path.join(this.dir(name), STACK_FILE), 'utf8');
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
    return entries.filter((e) => e.isDirectory()).map((e) => e.name);
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
  private async validate(name: string, content: string, mode: 'create' | 'redeploy', actor: Actor): Promise<string> {
    const dir = this.dir(name);
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
      const next = path.join(dir, NEXT_FILE);
      await writeFileAtomic(next, content, { mode: 0o600 });
      try {
        const output = await stackDeploy(this.runner(content), name, next, dir, append);
        await fs.rename(next, path.join(dir, STACK_FILE));
        return { name, output };
      } finally {
        await fs.rm(next, { force: true });
        if (!(await this.readFile(name))) await fs.rm(dir, { recursive: true, force: true });
      }
    });
  }

  async remove(name: string): Promise<{ removed: string }> {
    const stack = await this.get(name);
    return this.locked(name, 'rm', async (append) => {
      if (stack.services) append(await stackRemove(this.runner(), name));
      await fs.rm(this.dir(name), { recursive: true, force: true });
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
