import type { PolicyFeature } from '@berth/contract';
import type { ContainerHostConfig } from '../../docker/engine';

/**
 * What an engine container configuration has that the policy judges (Binds and Mounts alike: a
 * check of one but not the other is how Portainer's was bypassed). Used for what a recreate
 * replaces, so an edit keeps what an admin made without widening it.
 */
export function containerFeatures(host: ContainerHostConfig | undefined): PolicyFeature[] {
  if (!host) return [];
  const out: PolicyFeature[] = [];
  const add = (rule: PolicyFeature['rule'], value: string, field: string) => out.push({ rule, value, field });
  (host.Binds ?? []).forEach((b, i) => {
    const src = b.split(':')[0]!;
    if (src.startsWith('/')) add('bind_mounts', src, `HostConfig.Binds.${i}`);
    else if (src) add('volume', src, `HostConfig.Binds.${i}`);
  });
  (host.Mounts ?? []).forEach((m, i) => {
    if (m.Type === 'bind' && m.Source) add('bind_mounts', m.Source, `HostConfig.Mounts.${i}`);
    if (m.Type === 'volume' && m.Source) add('volume', m.Source, `HostConfig.Mounts.${i}`);
    const opts = m.VolumeOptions?.DriverConfig?.Options;
    if (opts?.device?.startsWith('/')) add('bind_mounts', opts.device, `HostConfig.Mounts.${i}`);
  });
  if (host.Privileged) add('privileged', 'true', 'HostConfig.Privileged');
  for (const c of host.CapAdd ?? []) add('cap_add', c, 'HostConfig.CapAdd');
  if (host.PidMode === 'host') add('host_pid', 'host', 'HostConfig.PidMode');
  if (host.IpcMode === 'host') add('host_ipc', 'host', 'HostConfig.IpcMode');
  if (host.UTSMode === 'host') add('host_uts', 'host', 'HostConfig.UTSMode');
  if (host.NetworkMode === 'host') add('host_network', 'host', 'HostConfig.NetworkMode');
  for (const [key, mode] of [
    ['PidMode', host.PidMode],
    ['IpcMode', host.IpcMode],
    ['NetworkMode', host.NetworkMode],
  ] as const)
    if (mode?.startsWith('container:')) add('namespace', mode.slice('container:'.length), `HostConfig.${key}`);
  if (host.UsernsMode === 'host') add('host_userns', 'host', 'HostConfig.UsernsMode');
  for (const d of host.Devices ?? []) if (d.PathOnHost) add('devices', d.PathOnHost, 'HostConfig.Devices');
  for (const r of host.DeviceCgroupRules ?? []) add('devices', r, 'HostConfig.DeviceCgroupRules');
  for (const k of Object.keys(host.Sysctls ?? {})) add('sysctls', k, 'HostConfig.Sysctls');
  for (const o of host.SecurityOpt ?? []) add('security_opt', o, 'HostConfig.SecurityOpt');
  if (host.CgroupParent) add('cgroup_parent', host.CgroupParent, 'HostConfig.CgroupParent');
  for (const v of host.VolumesFrom ?? []) add('volumes_from', v.split(':')[0]!, 'HostConfig.VolumesFrom');
  return out;
}
