import fs from 'node:fs/promises';
import YAML from 'yaml';
import type { ProjectPlan } from '@berth/contract';
import type { Uses } from '../../context';
import { resolvedConfig } from '../../compose/project-cli';
import { interpolationEnv } from '../../compose/interpolate';
import { CONFIG_HASH_LABEL, SERVICE_LABEL, PROJECT_LABEL, bareName } from '../../docker/names';
import { NotFoundError } from '../../errors';
import type { ProjectsService } from './projects';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Published {
  hostIp: string;
  port: number;
  proto: string;
}

/** Host ports a resolved service publishes: v1 prints `[ip:]host:container[/proto]` strings, v2 long-form objects. */
export function publishedPorts(ports: unknown): Published[] {
  if (!Array.isArray(ports)) return [];
  return ports.flatMap((p): Published[] => {
    if (isObj(p)) {
      const published = Number(p.published);
      return Number.isInteger(published) && published > 0
        ? [{ hostIp: String(p.host_ip ?? ''), port: published, proto: String(p.protocol ?? 'tcp') }]
        : [];
    }
    const m = /^(?:(\[[^\]]+\]|[\d.]+):)?(\d+)(?:-(\d+))?:\d+(?:-\d+)?(?:\/(\w+))?$/.exec(String(p));
    if (!m) return [];
    const from = Number(m[2]);
    const to = m[3] ? Number(m[3]) : from;
    const hostIp = (m[1] ?? '').replace(/^\[|\]$/g, '');
    return Array.from({ length: Math.min(to - from + 1, 1024) }, (_, i) => ({
      hostIp,
      port: from + i,
      proto: m[4] ?? 'tcp',
    }));
  });
}

/** Bind-mount host paths of a resolved service (v1 short strings, v2 long-form objects). */
export function bindSources(volumes: unknown): string[] {
  if (!Array.isArray(volumes)) return [];
  return volumes.flatMap((v) => {
    if (isObj(v)) return v.type === 'bind' && typeof v.source === 'string' ? [v.source] : [];
    const source = String(v).split(':')[0] ?? '';
    return source.startsWith('/') ? [source] : [];
  });
}

const anyAddress = (ip: string) => ip === '' || ip === '0.0.0.0' || ip === '::';
const overlaps = (a: string, b: string) => anyAddress(a) || anyAddress(b) || a === b;

/** A service's `profiles` list (strings only). */
const profilesOf = (svc: Obj): string[] =>
  Array.isArray(svc.profiles) ? svc.profiles.filter((x): x is string => typeof x === 'string') : [];

/** COMPOSE_PROFILES as compose reads it: comma-separated names. */
export function activeProfiles(env: Readonly<Record<string, string>>): string[] {
  return (env.COMPOSE_PROFILES ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}

/** Whether `up` (no service named) starts a service with these profiles: none, one of them active, or `*`. */
export const isActive = (profiles: readonly string[], active: readonly string[]) =>
  profiles.length === 0 || active.includes('*') || profiles.some((x) => active.includes(x));

/** `up` worked out before it runs (services of inactive profiles marked, not planned), from the CLI's resolved file, the config hashes and the engine's containers and images. */
export class ProjectPlanService {
  constructor(
    private readonly ctx: Uses<'docker', 'cliEnv'>,
    private readonly projects: ProjectsService,
    /** Whether host paths can be checked here (Berth runs beside this engine). */
    private readonly checkBinds: boolean,
  ) {}

  /** `files` puts another file in the project's place and adds overrides (a rollback's revision and digest pins). */
  async plan(name: string, files: { file?: string; overrides?: string[] } = {}): Promise<ProjectPlan> {
    const p = await this.projects.resolveExisting(name);
    const { yaml, hashes } = await resolvedConfig(this.projects.runner(), {
      ...p,
      file: files.file ?? p.file,
      overrides: files.overrides,
    });
    const doc: unknown = YAML.parse(yaml);
    const resolved = isObj(doc) && isObj(doc.services) ? doc.services : {};
    // The compose v2 CLI leaves services of inactive profiles out of `config`; the file still names them.
    const { parsed } = await this.projects.parseExisting(p);
    const written = isObj(parsed.data.services) ? parsed.data.services : {};
    const services: Obj = { ...resolved };
    for (const [service, raw] of Object.entries(written))
      if (!Object.hasOwn(services, service) && isObj(raw) && profilesOf(raw).length) services[service] = raw;
    const active = activeProfiles(await interpolationEnv(p.dir, this.ctx.config.cliEnv));
    const all = await this.ctx.docker.listContainers({ all: true });
    const own = all.filter((c) => c.Labels?.[PROJECT_LABEL] === name);
    const others = all.filter((c) => c.Labels?.[PROJECT_LABEL] !== name && c.State === 'running');
    const plan: ProjectPlan = {
      services: [],
      orphans: [],
      port_conflicts: [],
      missing_binds: [],
      binds_checked: this.checkBinds,
      active_profiles: active,
    };

    for (const [service, raw] of Object.entries(services)) {
      const svc = isObj(raw) ? raw : {};
      const profiles = profilesOf(svc);
      const image = typeof svc.image === 'string' ? svc.image : null;
      const build = svc.build !== undefined;
      if (!isActive(profiles, active)) {
        // up neither starts, pulls nor binds it: nothing below applies.
        plan.services.push({ name: service, action: 'inactive', profiles, image, build, pull: false });
        continue;
      }
      const mine = own.filter((c) => c.Labels?.[SERVICE_LABEL] === service);
      const action =
        mine.length === 0
          ? 'create'
          : mine.some((c) => c.Labels?.[CONFIG_HASH_LABEL] !== hashes.get(service))
            ? 'recreate'
            : 'unchanged';
      plan.services.push({
        name: service,
        action,
        profiles,
        image,
        build,
        pull: !build && image !== null && !(await this.imagePresent(image)),
      });

      for (const port of publishedPorts(svc.ports)) {
        const holder = others.find((c) =>
          (c.Ports ?? []).some(
            (q) => q.PublicPort === port.port && q.Type === port.proto && overlaps(q.IP ?? '', port.hostIp),
          ),
        );
        if (holder)
          plan.port_conflicts.push({
            service,
            port: `${port.hostIp ? `${port.hostIp}:` : ''}${port.port}/${port.proto}`,
            used_by: bareName(holder.Names[0] ?? holder.Id),
          });
      }
      if (this.checkBinds) {
        for (const source of bindSources(svc.volumes)) {
          if (
            !(await fs.stat(source).then(
              () => true,
              () => false,
            ))
          )
            plan.missing_binds.push({ service, path: source });
        }
      }
    }
    for (const c of own) {
      const service = c.Labels?.[SERVICE_LABEL] ?? '';
      if (!Object.hasOwn(services, service)) plan.orphans.push({ name: bareName(c.Names[0] ?? c.Id), service });
    }
    return plan;
  }

  private async imagePresent(ref: string): Promise<boolean> {
    try {
      await this.ctx.docker.inspectImage(ref);
      return true;
    } catch (err) {
      if (err instanceof NotFoundError) return false;
      throw err;
    }
  }
}
