import fs from 'node:fs';
import path from 'node:path';
import type { ProtectedPath } from '@berth/contract';
import type { Config } from '../../config';
import type { ContainerDetail } from '../../docker/engine';
import { keysDir } from '../auth/tokens';

/** Host folders whose contents are the host: mounting them (or a folder holding them) is root on it. */
const SYSTEM_PATHS: ProtectedPath[] = [
  { path: '/etc', what: "the host's configuration" },
  { path: '/root', what: "root's home folder" },
  { path: '/proc', what: "the host's processes" },
  { path: '/sys', what: "the host's kernel interface" },
  { path: '/dev', what: "the host's devices" },
  { path: '/boot', what: "the host's boot files" },
  { path: '/var/lib/docker', what: "the Docker engine's state" },
  { path: '/var/lib/containerd', what: "containerd's state" },
  { path: '/var/run/docker.sock', what: 'the Docker engine socket' },
  { path: '/run/docker.sock', what: 'the Docker engine socket' },
  { path: '/var/run/containerd', what: "containerd's socket" },
  { path: '/run/containerd', what: "containerd's socket" },
];

/** `p` and, when it differs, where its links lead (a protected folder reached through a link is the same folder). */
function withRealPath(p: ProtectedPath): ProtectedPath[] {
  try {
    const real = fs.realpathSync(p.path);
    return real === p.path ? [p] : [p, { ...p, path: real }];
  } catch {
    // Not there (yet): the lexical path is all there is to compare with.
    return [p];
  }
}

/**
 * The always-refused list for one environment: the host's system folders and the engine's
 * sockets everywhere; Berth's own data, keys and environment material too (on the engine Berth
 * runs beside these are host paths; elsewhere refusing them costs nothing).
 */
export function protectedPaths(
  config: Pick<Config, 'dataDir' | 'composeDir' | 'dockerHost'>,
  extra: readonly ProtectedPath[] = [],
): ProtectedPath[] {
  const own: ProtectedPath[] = [
    { path: config.dataDir, what: "Berth's data folder (its database and keys)" },
    { path: keysDir(config.dataDir), what: "Berth's signing key" },
    { path: path.join(config.composeDir, '.environments'), what: "the environments' connection keys" },
  ];
  const socket = /^unix:\/\/(\/.+)$/.exec(config.dockerHost ?? '')?.[1];
  if (socket) own.push({ path: socket, what: 'the Docker engine socket' });
  return [...own, ...SYSTEM_PATHS, ...extra].flatMap(withRealPath);
}

/**
 * When Berth runs in a container, the host paths behind its data folder and its engine socket
 * are what an operator would name in a bind: the sources of Berth's own mounts that hold them.
 */
export function selfMountSources(
  self: ContainerDetail,
  config: Pick<Config, 'dataDir' | 'composeDir'>,
): ProtectedPath[] {
  const inside = [config.dataDir, config.composeDir, '/var/run/docker.sock', '/run/docker.sock'];
  const out: ProtectedPath[] = [];
  for (const m of self.Mounts ?? []) {
    if (m.Type !== 'bind' || !m.Source || !m.Destination) continue;
    const dest = m.Destination;
    if (inside.some((p) => p === dest || p.startsWith(`${dest}/`) || dest.startsWith(`${p}/`)))
      out.push({ path: m.Source, what: `Berth's own mount at ${dest}` });
  }
  return out;
}
