import { stringify } from 'yaml';
import type { App, AppAction, Processes } from '@berth/contract';
import type { Uses } from '../../context';
import {
  appFromInspect,
  appFromListEntry,
  containerAction,
  containerProcesses,
  inspectContainer,
  listContainers,
  listShowsImageId,
  type ContainerDetail,
  type ContainerListEntry,
} from './containers';
import type { ContainerListCache } from '../../docker/list-cache';
import { readWholeLog } from '../../docker/logs';
import { bareName } from '../../docker/names';
import { attachmentName, buildZip } from '../../lib/zip';
import type { AppsRuntime } from './apps-runtime';
import { keptNewerVersion } from '../images/images-update';

/** Support bundles keep the last 10 MiB of the log. */
export const BUNDLE_LOG_BYTES = 10 * 1024 * 1024;
const BUNDLE_LOG_TIMEOUT_MS = 60_000;
/** At most this many list rows get their image reference looked up per list call. */
const REF_LOOKUPS_PER_LIST = 20;

const REDACTED = '<redacted>';

/** NAME=value → NAME=<redacted>; a bare NAME (passed through from the host) stays. */
export function redactEnv(env: string[] | null | undefined): string[] | null {
  if (!env) return null;
  return env.map((e) => {
    const eq = e.indexOf('=');
    return eq === -1 ? e : `${e.slice(0, eq)}=${REDACTED}`;
  });
}

/** Containers: list, read, lifecycle actions, processes and support bundles. */
export class AppsService {
  /** The last list answered, with what it was built from; never mutated (callers copy). */
  private lastList: {
    rows: ContainerListEntry[];
    extras: readonly (boolean | string | null | undefined)[];
    apps: App[];
  } | null = null;

  constructor(
    private readonly ctx: Uses<'docker' | 'log' | 'registryTags'>,
    private readonly rt: AppsRuntime,
  ) {}

  /** Every container, sorted by name: from the event-kept cache when it is provably current, else one engine list call. */
  async list(): Promise<App[]> {
    const rows = this.rt.listCache ? await this.rt.listCache.list() : await listContainers(this.ctx.docker);
    await this.lookUpImageRefs(rows);
    const ids = new Set(rows.map((r) => r.Id));
    for (const cache of [this.rt.updatable, this.rt.imageRefs])
      for (const id of cache.keys()) if (!ids.has(id)) cache.delete(id);
    const extras = rows.flatMap((c) => {
      const ref = listShowsImageId(c) ? this.rt.imageRefs.get(c.Id) : undefined;
      return [
        this.rt.updatable.get(c.Id) ?? false,
        ref,
        keptNewerVersion(ref ?? c.Image, this.ctx.registryTags),
      ] as const;
    });
    // The same cached rows with the same update flags, references and newer versions: the same answer (the route keeps its JSON).
    const last = this.lastList;
    if (last?.rows === rows && last.extras.length === extras.length && last.extras.every((x, i) => x === extras[i]))
      return last.apps;
    const apps = rows
      .map((c, i) => ({
        ...appFromListEntry(c, extras[3 * i] as boolean, extras[3 * i + 1] as string | undefined),
        newerVersion: extras[3 * i + 2] as string | null,
      }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.lastList = { rows, extras, apps };
    return apps;
  }

  /** The event-kept list cache of this environment, if it runs here. */
  get listCache(): ContainerListCache | null {
    return this.rt.listCache;
  }

  async inspect(name: string): Promise<ContainerDetail> {
    const info = await inspectContainer(this.ctx.docker, name);
    this.rt.imageRefs.set(info.Id, info.Config.Image);
    return info;
  }

  async get(name: string): Promise<App> {
    const info = await this.inspect(name);
    return {
      ...appFromInspect(info, this.rt.updatable.get(info.Id) ?? false),
      newerVersion: keptNewerVersion(info.Config.Image, this.ctx.registryTags),
    };
  }

  /** Why the app stopped: exit code and meaning, OOM, restarts, the last log lines before the stop. */
  processes(name: string): Promise<Processes> {
    return containerProcesses(this.ctx.docker, name);
  }

  /** One lifecycle action; returns the new list. */
  async action(name: string, action: AppAction): Promise<App[]> {
    await this.act(name, action);
    return this.list();
  }

  /** One lifecycle action, without reading the list again (a batch reads it once at the end). */
  act(name: string, action: AppAction): Promise<void> {
    return containerAction(this.ctx.docker, name, action);
  }

  /** A zip with the log (its last 10 MiB) and the configuration as YAML, every environment value redacted. */
  async supportBundle(name: string): Promise<{ filename: string; zip: Buffer }> {
    const info = await this.inspect(name);
    const base = bareName(info.Name);
    const log = await readWholeLog(
      this.ctx.docker,
      info.Id,
      Boolean(info.Config.Tty),
      BUNDLE_LOG_BYTES,
      BUNDLE_LOG_TIMEOUT_MS,
    );
    const config = { ...info, Config: { ...info.Config, Env: redactEnv(info.Config.Env) } };
    const header = [
      `# Configuration of ${base} as the Docker engine reports it (docker inspect).`,
      `# Every environment value is replaced by ${REDACTED}.`,
      '# The command line (Path, Args, Config.Cmd, Config.Entrypoint) and labels are kept as they are:',
      '# check them for secrets before you share this file.',
      '',
    ].join('\n');
    const zip = await buildZip([
      { name: `${attachmentName(base, 'log')}`, content: log },
      { name: `${attachmentName(`${base}-config`, 'yml')}`, content: header + stringify(config) },
    ]);
    return { filename: attachmentName(`${base}_bundle`, 'zip'), zip };
  }

  /**
   * The engine lists a container's image ID instead of its reference once the reference points
   * to a newer image (exactly when an update is pending). Look those few up, remembering them,
   * so the list shows what the app was created from.
   */
  private async lookUpImageRefs(rows: ContainerListEntry[]): Promise<void> {
    const missing = rows
      .filter((c) => listShowsImageId(c) && !this.rt.imageRefs.has(c.Id))
      .slice(0, REF_LOOKUPS_PER_LIST);
    for (let i = 0; i < missing.length; i += 5) {
      await Promise.all(
        missing.slice(i, i + 5).map((c) =>
          this.inspect(c.Id).catch((err: unknown) => {
            this.ctx.log.debug({ err, container: c.Id }, 'image reference lookup failed');
          }),
        ),
      );
    }
  }
}
