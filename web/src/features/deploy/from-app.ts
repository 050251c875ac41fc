import {
  CAPABILITIES,
  formatMemLimit,
  LEGACY_PORT_LABEL_PREFIX,
  NETWORK_MODES,
  portLabelKey,
  readPortLabel,
  type App,
  type ImageContainerConfig,
} from '@berth/contract';
import type { DeployFormValues, PortRow, VolumeRow } from './form-model';

/** Labels Berth or the engine manage; the form shows only the user's own. */
const MANAGED_LABEL = (key: string) =>
  key.startsWith('com.docker.') || key.startsWith(portLabelKey('')) || key.startsWith(LEGACY_PORT_LABEL_PREFIX);
const ANONYMOUS_VOLUME = /^[0-9a-f]{64}$/;

type Dict = Record<string, unknown>;
const obj = (v: unknown): Dict => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Dict) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const strings = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === 'string');

/** Configured bindings (HostConfig.PortBindings), so a stopped app keeps its ports; each binding is one row, exactly. */
function portsOf(hostConfig: Dict, labels: Record<string, string>): PortRow[] {
  const rows: PortRow[] = [];
  for (const [key, bindings] of Object.entries(obj(hostConfig.PortBindings))) {
    const [cport = '', proto] = key.split('/');
    const seen = new Set<string>();
    const list = arr(bindings).map(obj);
    for (const b of list.length ? list : [{}]) {
      const hport = str(b.HostPort);
      const hostIp = str(b.HostIp);
      // A binding written twice is one row (the engine would publish it once).
      if (seen.has(`${hostIp}|${hport}`)) continue;
      seen.add(`${hostIp}|${hport}`);
      rows.push({
        label: (hport && readPortLabel(labels, hport)) || '',
        host_ip: hostIp,
        hport,
        cport,
        proto: proto === 'udp' ? 'udp' : 'tcp',
      });
    }
  }
  return rows;
}

/** Configured binds first ("src:dst[:opts]"), then mounts made otherwise, skipping anonymous volumes. */
function volumesOf(hostConfig: Dict, mounts: App['Mounts']): VolumeRow[] {
  const rows: VolumeRow[] = [];
  for (const bind of strings(hostConfig.Binds)) {
    const [bindPath = '', container = '', opts = ''] = bind.split(':');
    rows.push({ bind: bindPath, container, readonly: opts.split(',').includes('ro') });
  }
  for (const m of mounts ?? []) {
    if (rows.some((r) => r.container === m.Destination)) continue;
    const source = m.Type === 'volume' ? str(m.Name) : str(m.Source);
    if (!source || (m.Type === 'volume' && ANONYMOUS_VOLUME.test(source))) continue;
    rows.push({ bind: source, container: m.Destination, readonly: (m as Dict).RW === false });
  }
  return rows;
}

function networkOf(mode: string): Pick<DeployFormValues, 'network' | 'network_mode'> {
  if (!mode || mode === 'default') return { network: '', network_mode: '' };
  if ((NETWORK_MODES as readonly string[]).includes(mode)) return { network: '', network_mode: mode };
  // container:<id> and the like have no place in the form.
  if (mode.includes(':')) return { network: '', network_mode: '' };
  return { network: mode, network_mode: '' };
}

const sameList = (a: readonly string[], b: readonly string[] | null | undefined) =>
  !!b && a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * An existing app as the form's starting point, from its configuration (not its runtime state).
 * With the image's own configuration at hand, what the image supplies by itself (its env, labels
 * and default command) is left out, so the form holds what the user chose.
 */
export function fromApp(app: App, image?: ImageContainerConfig | null): DeployFormValues {
  const config = app.Config as App['Config'] & Dict;
  const hostConfig = obj(app.HostConfig);
  const labels = config.Labels ?? {};
  const imageEnv = new Set(image?.Env ?? []);
  const imageLabels = image?.Labels ?? {};
  const restart = str(obj(hostConfig.RestartPolicy).Name);
  const cmd = strings(config.Cmd);
  const nanoCpus = num(hostConfig.NanoCpus);
  return {
    name: app.name,
    image: config.Image,
    restart_policy: restart === '' || restart === 'no' ? 'none' : restart,
    ...networkOf(str(hostConfig.NetworkMode)),
    ports: portsOf(hostConfig, labels),
    volumes: volumesOf(hostConfig, app.Mounts),
    env: (config.Env ?? [])
      .filter((e) => !imageEnv.has(e))
      .map((e) => {
        const at = e.indexOf('=');
        return {
          name: at < 0 ? e : e.slice(0, at),
          default: at < 0 ? '' : e.slice(at + 1),
          label: '',
          description: '',
        };
      }),
    command: image && sameList(cmd, image.Cmd) ? [] : cmd,
    devices: arr(hostConfig.Devices)
      .map(obj)
      .map((d) => ({ container: str(d.PathInContainer), host: str(d.PathOnHost) })),
    labels: Object.entries(labels)
      .filter(([k, v]) => !MANAGED_LABEL(k) && imageLabels[k] !== v)
      .map(([label, value]) => ({ label, value })),
    sysctls: Object.entries(obj(hostConfig.Sysctls)).map(([name, value]) => ({ name, value: str(value) })),
    cap_add: strings(hostConfig.CapAdd)
      .filter((c) => (CAPABILITIES as readonly string[]).includes(c.replace(/^CAP_/, '')))
      .map((c) => c.replace(/^CAP_/, '')),
    cpus: nanoCpus ? String(nanoCpus / 1e9) : '',
    mem_limit: formatMemLimit(num(hostConfig.Memory)),
    privileged: hostConfig.Privileged === true,
    interactive: config.Tty === true && config.OpenStdin === true,
    // The engine names a container's host after its short ID when none was chosen; that is not the user's.
    hostname: str(config.Hostname) === app.Id.slice(0, 12) ? '' : str(config.Hostname),
  };
}
