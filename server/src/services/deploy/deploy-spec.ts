import { LEGACY_PORT_LABEL_PREFIX, portLabelKey, type DeployRequest } from '@berth/contract';
import type { ContainerSpec } from '../apps/replace';
import { ValidationError } from '../../errors';
import type { Substituter } from '../variables/variables';

const VOLUME_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]+$/;

type FieldError = { field: string; message: string; sentence?: string };

/** An unset `!name` said as a sentence a person can act on (the field list keeps the short form). */
function unsetVariables(field: string, where: string, names: string[]): FieldError {
  const them = names.length === 1 ? `template variable ${names[0]} is` : `template variables ${names.join(', ')} are`;
  return {
    field,
    message: `Unset template variable used: ${names.join(', ')}`,
    sentence: `The ${them} not set (used in ${where}, field ${field}); add it under Settings → Template Variables, or change the value.`,
  };
}

/** Host side of a volume row: an absolute path is a bind mount, anything else must name a volume. */
function volumeSource(bind: string, field: string, vars: Substituter, errors: FieldError[]): string {
  const source = vars.apply(bind);
  const unknown = vars.unknown(source);
  if (unknown.length) errors.push(unsetVariables(field, `the host path ${bind}`, unknown));
  else if (source.includes(':')) errors.push({ field, message: 'Host path must not contain ":".' });
  else if (!source.startsWith('/') && !VOLUME_NAME.test(source)) {
    errors.push({
      field,
      message: 'Host path must be an absolute path (/srv/app) or a volume name (letters, digits, _ . -).',
    });
  }
  return source;
}

/**
 * The engine's create body for a validated deploy payload, with template variables substituted in
 * volume host paths, env values and labels. Field-level problems found here (an unset variable, a
 * relative host path) are a ValidationError naming each field; nothing has touched the engine yet.
 */
export function buildContainerSpec(req: DeployRequest, vars: Substituter): ContainerSpec {
  const errors: FieldError[] = [];

  const binds: string[] = [];
  // An empty host is an anonymous volume (as in Portainer): a mount with no source.
  const anonymous: { Type: 'volume'; Source: ''; Target: string; ReadOnly: boolean }[] = [];
  req.volumes.forEach((v, i) => {
    if (!v.bind)
      return void anonymous.push({ Type: 'volume', Source: '', Target: v.container, ReadOnly: !!v.readonly });
    const source = volumeSource(v.bind, `volumes.${i}.bind`, vars, errors);
    if (v.container.includes(':'))
      errors.push({ field: `volumes.${i}.container`, message: 'Container path must not contain ":".' });
    binds.push(`${source}:${v.container}${v.readonly ? ':ro' : ''}`);
  });

  const env = req.env.map((e, i) => {
    const unknown = vars.unknown(e.default);
    if (unknown.length) errors.push(unsetVariables(`env.${i}.default`, `environment variable ${e.name}`, unknown));
    return `${e.name}=${vars.apply(e.default)}`;
  });

  const labels: Record<string, string> = {};
  for (const l of req.labels) labels[vars.apply(l.label)] = vars.apply(l.value);

  const exposed: Record<string, object> = {};
  const bindings: Record<string, { HostIp: string; HostPort: string }[]> = {};
  for (const p of req.ports) {
    const key = `${p.cport}/${p.proto}`;
    exposed[key] = {};
    // A port may be published on several host ports and addresses; an empty host port lets the
    // engine pick one, an empty host IP means every interface.
    (bindings[key] ??= []).push({ HostIp: p.host_ip ?? '', HostPort: p.hport ? String(p.hport) : '' });
    if (p.label && p.hport) {
      labels[portLabelKey(p.hport)] = p.label;
      // The original product's label for the same port would show a stale name next to ours.
      delete labels[`${LEGACY_PORT_LABEL_PREFIX}${p.hport}`];
    }
  }

  if (errors.length) {
    const detail = errors.some((e) => e.sentence)
      ? errors.map((e) => e.sentence ?? `${e.field}: ${e.message}.`).join(' ')
      : errors.map((e) => `${e.field}: ${e.message}`).join('; ');
    throw new ValidationError(
      detail,
      errors.map(({ field, message }) => ({ field, message })),
    );
  }

  const networkMode = req.network ?? req.network_mode ?? undefined;
  return {
    Image: req.image,
    ...(req.command.length ? { Cmd: req.command } : {}),
    ...(req.hostname ? { Hostname: req.hostname } : {}),
    ...(req.interactive ? { Tty: true, OpenStdin: true } : {}),
    Env: env,
    Labels: labels,
    ExposedPorts: exposed,
    HostConfig: {
      Binds: binds,
      ...(anonymous.length ? { Mounts: anonymous } : {}),
      ...(req.privileged ? { Privileged: true } : {}),
      PortBindings: bindings,
      Devices: req.devices.map((d) => ({ PathOnHost: d.host, PathInContainer: d.container, CgroupPermissions: 'rwm' })),
      Sysctls: Object.fromEntries(req.sysctls.map((s) => [s.name, s.value])),
      CapAdd: [...new Set(req.cap_add)],
      NanoCpus: req.cpus ? Math.round(req.cpus * 1e9) : 0,
      Memory: req.mem_limit,
      RestartPolicy: { Name: req.restart_policy === 'none' ? 'no' : req.restart_policy, MaximumRetryCount: 0 },
      ...(networkMode ? { NetworkMode: networkMode } : {}),
    },
    ...(req.network ? { NetworkingConfig: { EndpointsConfig: { [req.network]: {} } } } : {}),
  };
}

type Bindings = Record<string, { HostIp?: string; HostPort?: string }[] | null | undefined>;

/**
 * On edit, a port the old app published on an engine-chosen ("random") host port keeps that host
 * port when the form still says random: an edit should not move the app to a new port. Ports the
 * old app had fixed, and ports the user now fixes, are left as the form says.
 */
export function keepRandomHostPorts(
  spec: ContainerSpec,
  old: { configured: Bindings | undefined; published: Bindings | undefined },
): void {
  const bindings = spec.HostConfig?.PortBindings as Record<string, { HostIp: string; HostPort: string }[]> | undefined;
  if (!bindings) return;
  const taken = new Set(Object.values(bindings).flatMap((list) => list.map((b) => b.HostPort).filter(Boolean)));
  // The engine publishes a binding on every interface ('') as 0.0.0.0 and ::; one on an address as itself.
  const sameAddress = (configured: string, published: string) =>
    configured ? configured === published : published === '0.0.0.0' || published === '::' || published === '';
  for (const [key, list] of Object.entries(bindings)) {
    const configured = old.configured?.[key] ?? [];
    const fixed = new Set(configured.map((b) => b.HostPort).filter(Boolean));
    const used = new Set<string>();
    for (const b of list) {
      if (b.HostPort) continue;
      const randoms = configured.filter((c) => !c.HostPort && (c.HostIp ?? '') === b.HostIp).length;
      const chosen = [
        ...new Set(
          (old.published?.[key] ?? [])
            .filter((p) => sameAddress(b.HostIp, p.HostIp ?? ''))
            .map((p) => p.HostPort ?? ''),
        ),
      ]
        .filter((p) => p && !fixed.has(p) && !taken.has(p) && !used.has(`${b.HostIp}|${p}`))
        .slice(0, randoms);
      const port = chosen[0];
      if (port === undefined) continue;
      used.add(`${b.HostIp}|${port}`);
      b.HostPort = port;
    }
  }
}
