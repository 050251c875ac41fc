import type { AgentEnrolment, NewAgentEnvironmentBody } from '@berth/contract';
import type { Uses } from '../../context';
import type { AgentHub } from '../agents/agent-hub';
import type { EnvironmentsService } from './environments';

/** The image the snippets run: the same image as Berth, with the agent's entry point. */
const IMAGE = 'berth:latest';
const ENTRY = ['node', '/app/server/dist/agent-main.mjs'];

/**
 * Agent environments: added with a one-time enrolment token (shown once, only its hash kept)
 * and the commands that start the agent beside the engine; a new token or a revoke cuts off the
 * agent that is connected.
 */
export class AgentEnvironments {
  constructor(
    private readonly base: Uses<'log'>,
    private readonly environments: EnvironmentsService,
    private readonly hub: AgentHub,
  ) {}

  /** `berthUrl`: where the agent dials Berth (the address the admin's browser used). */
  async create(body: NewAgentEnvironmentBody, berthUrl: string): Promise<AgentEnrolment> {
    const id = this.environments.newId(body.name, body.id);
    const now = new Date().toISOString();
    this.environments.insertRow({
      id,
      name: body.name,
      url: `agent://${id}`,
      kind: 'agent',
      tls_ca: null,
      tls_cert: null,
      tls_key_sealed: null,
      ssh_user: null,
      ssh_key_sealed: null,
      ssh_passphrase_sealed: null,
      ssh_host_key: null,
      created_at: now,
      updated_at: now,
    });
    this.base.log.info({ environment: id, kind: 'agent' }, 'environment added');
    return this.enrolment(id, berthUrl);
  }

  /** A new token; the agent enrolled before is revoked (and cut off if connected). */
  async token(id: string, berthUrl: string): Promise<AgentEnrolment> {
    this.environments.agentRow(id);
    return this.enrolment(id, berthUrl);
  }

  async revoke(id: string) {
    this.environments.agentRow(id);
    this.hub.revoke(id);
    this.base.log.info({ environment: id }, 'agent revoked');
    return this.environments.get(id, false);
  }

  private async enrolment(id: string, berthUrl: string): Promise<AgentEnrolment> {
    const token = this.hub.issueToken(id);
    const environment = await this.environments.get(id, false);
    return { environment, token, ...snippets(berthUrl, token) };
  }
}

/**
 * The `docker run` command and compose file that start an agent: its key in a volume (the image's
 * /config, owned by its `node` user), the engine socket with its group, the cgroup tree read-only.
 */
export function snippets(berthUrl: string, token: string): { docker_run: string; compose: string } {
  const docker_run = [
    'docker run -d --name berth-agent --restart unless-stopped',
    `  -e BERTH_URL=${berthUrl}`,
    `  -e BERTH_AGENT_TOKEN=${token}`,
    '  -v berth-agent:/config -e BERTH_AGENT_STATE=/config',
    '  -v /var/run/docker.sock:/var/run/docker.sock --group-add "$(stat -c %g /var/run/docker.sock)"',
    '  -v /sys/fs/cgroup:/sys/fs/cgroup:ro',
    `  ${IMAGE} ${ENTRY.join(' ')}`,
  ].join(' \\\n');
  const compose = [
    'services:',
    '  berth-agent:',
    `    image: ${IMAGE}`,
    `    command: [${ENTRY.map((w) => JSON.stringify(w)).join(', ')}]`,
    '    restart: unless-stopped',
    '    # the group of /var/run/docker.sock on this host (stat -c %g /var/run/docker.sock)',
    '    group_add: ["${DOCKER_GID:-999}"]',
    '    environment:',
    `      BERTH_URL: ${berthUrl}`,
    `      BERTH_AGENT_TOKEN: ${token}`,
    '      BERTH_AGENT_STATE: /config',
    '    volumes:',
    '      - berth-agent:/config',
    '      - /var/run/docker.sock:/var/run/docker.sock',
    '      - /sys/fs/cgroup:/sys/fs/cgroup:ro',
    'volumes:',
    '  berth-agent: {}',
    '',
  ].join('\n');
  return { docker_run, compose };
}
