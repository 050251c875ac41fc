import type { ShellName } from '@berth/contract';
import type { Uses } from '../../context';
import { listComposeContainers } from '../projects/compose-containers';
import { inspectContainer } from '../apps/containers';
import { probeShells, startTtyExec, type TtyExec } from './exec';
import { bareName } from '../../docker/names';
import { ConflictError, NotFoundError } from '../../errors';

/** The running container a terminal opens in, and what the log calls it. */
export interface TerminalTarget {
  containerId: string;
  label: string;
}

export interface TerminalRequest {
  shell?: ShellName;
  cmd?: string[];
  user?: string;
  cols: number;
  rows: number;
}

/**
 * One environment's terminals: finds the running container of an app or compose service
 * (404 unknown, 409 not running), probes its shells and starts a process with a TTY in it.
 */
export class TerminalService {
  constructor(private readonly ctx: Uses<'docker' | 'log'>) {}

  async app(name: string): Promise<TerminalTarget> {
    const info = await inspectContainer(this.ctx.docker, name);
    const label = bareName(info.Name);
    if (!info.State.Running) throw new ConflictError(`${label} is not running; start it to open a terminal.`);
    if (info.State.Paused) throw new ConflictError(`${label} is paused; unpause it to open a terminal.`);
    return { containerId: info.Id, label };
  }

  async service(project: string, service: string): Promise<TerminalTarget> {
    const containers = (await listComposeContainers(this.ctx.docker, project)).filter((c) => c.service === service);
    const label = `${project}/${service}`;
    if (!containers.length) throw new NotFoundError('service', label);
    const running = containers.find((c) => c.state === 'running');
    if (!running) throw new ConflictError(`Service ${label} is not running; start it to open a terminal.`);
    return { containerId: running.id, label };
  }

  shells(target: TerminalTarget): Promise<ShellName[]> {
    return probeShells(this.ctx.docker, target.containerId);
  }

  open(target: TerminalTarget, req: TerminalRequest): Promise<TtyExec> {
    const cmd = req.cmd ?? [req.shell ?? 'sh'];
    const spec = { cmd, user: req.user, cols: req.cols, rows: req.rows };
    return startTtyExec(this.ctx.docker, target.containerId, spec, (watch) => {
      void watch.then((outcome) => {
        const level = outcome === 'hung-up' || outcome === 'still-running' ? 'warn' : 'info';
        this.ctx.log[level]({ target: target.label, outcome }, 'terminal start failed; its command was watched');
      });
    });
  }
}
