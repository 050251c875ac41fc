import type { PolicyFeature } from '@berth/contract';
import type { ServiceSpec } from '../../docker/swarm-engine';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * What a swarm service's spec gives its tasks that the policy judges: bind mounts, volume mounts
 * whose driver options bind a host path, capabilities, privileges that lift confinement, sysctls,
 * the host network. A create and an update are judged alike (an update is how a benign service
 * would otherwise gain CAP ALL).
 */
export function serviceFeatures(spec: ServiceSpec): PolicyFeature[] {
  const c = spec.TaskTemplate.ContainerSpec;
  const out: PolicyFeature[] = [];
  const add = (rule: PolicyFeature['rule'], value: string, field: string) => out.push({ rule, value, field });
  (c.Mounts ?? []).forEach((m, i) => {
    if (m.Type === 'bind' && m.Source) add('bind_mounts', m.Source, `mounts.${i}.source`);
    // A task on the node Berth runs on mounts that node's volume of the name: Berth's own one included.
    if ((m.Type === 'volume' || m.Type === undefined) && m.Source) add('volume', m.Source, `mounts.${i}.source`);
    const opts = (m.VolumeOptions as { DriverConfig?: { Options?: Record<string, string> } } | undefined)?.DriverConfig
      ?.Options;
    if (typeof opts?.device === 'string' && opts.device.startsWith('/'))
      add('bind_mounts', opts.device, `mounts.${i}.source`);
  });
  for (const cap of strings(c.CapabilityAdd)) add('cap_add', cap, 'cap_add');
  if (isRecord(c.Sysctls)) for (const k of Object.keys(c.Sysctls)) add('sysctls', k, 'sysctls');
  const priv = isRecord(c.Privileges) ? c.Privileges : {};
  if (isRecord(priv.AppArmor) && priv.AppArmor.Mode === 'disabled')
    add('security_opt', 'apparmor=unconfined', 'privileges');
  if (isRecord(priv.Seccomp) && priv.Seccomp.Mode === 'unconfined')
    add('security_opt', 'seccomp=unconfined', 'privileges');
  if (isRecord(priv.SELinuxContext) && priv.SELinuxContext.Disable === true)
    add('security_opt', 'label=disable', 'privileges');
  for (const n of spec.TaskTemplate.Networks ?? []) if (n.Target === 'host') add('host_network', 'host', 'networks');
  return out;
}
