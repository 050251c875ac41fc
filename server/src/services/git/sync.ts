import { createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import type { GitHookResult, ProjectPlan } from '@berth/contract';
import type { GitRepo, GitSourceRow } from '../../db/git-repo';
import { ComposeFailedError, UnauthorizedError } from '../../errors';
import { open } from '../../lib/secret-box';
import type { AuditRecord } from '../audit/audit';
import type { ComposeFailure } from '../projects/projects-actions';
import type { Actor } from '../policy';
import type { GitScope } from './owners';
import type { GitSourcesService } from './sources';

type HookOutcome = GitHookResult['results'][number];

/**
 * Who an automatic deploy acts as: an operator, so what arrives by a push is judged by the
 * environment's policy for non-admins (a push never gains an admin's rights).
 */
export const GIT_SYNC_ACTOR: Actor = { role: 'operator', username: 'git sync' };

const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Whether a webhook call carries proof of the secret: GitHub's `X-Hub-Signature-256: sha256=<hmac>`,
 * Gitea/Forgejo's `X-Gitea-Signature` / `X-Forgejo-Signature: <hmac>`, GitLab's `X-Gitlab-Token:
 * <secret>`, or the generic `X-Berth-Signature: sha256=<hmac>` (HMAC-SHA256 of the raw body).
 */
export function verifyHook(secret: string, headers: Record<string, unknown>, body: Buffer): boolean {
  const header = (name: string) => {
    const v = headers[name];
    return typeof v === 'string' ? v.trim() : null;
  };
  const mac = createHmac('sha256', secret).update(body).digest('hex');
  const prefixed = [header('x-hub-signature-256'), header('x-berth-signature')];
  if (prefixed.some((v) => v !== null && safeEqual(v.toLowerCase(), `sha256=${mac}`))) return true;
  const bare = [header('x-gitea-signature'), header('x-forgejo-signature')];
  if (bare.some((v) => v !== null && safeEqual(v.toLowerCase(), mac))) return true;
  const token = header('x-gitlab-token');
  return token !== null && safeEqual(token, secret);
}

/** The ref a push names (`refs/heads/main`), if the body is a push event. */
function pushedRef(body: Buffer): string | null {
  try {
    const data: unknown = JSON.parse(body.toString('utf8'));
    const ref = (data as { ref?: unknown } | null)?.ref;
    return typeof ref === 'string' ? ref : null;
  } catch {
    return null;
  }
}

const refMatches = (pushed: string, ref: string) =>
  pushed === ref || pushed === `refs/heads/${ref}` || pushed === `refs/tags/${ref}`;

/** Whether a change touches a project: its compose file's folder (and below), or its env file. */
function ownsChange(row: GitSourceRow, file: string): boolean {
  const dir = path.posix.dirname(row.path);
  return dir === '.' || file.startsWith(`${dir}/`) || file === row.env_file;
}

export const planSummary = (plan: ProjectPlan) =>
  plan.services.map((s) => `${s.name}: ${s.action}${s.image ? ` ${s.image}` : ''}`).join(', ') || 'no services';

/** Webhook and polling sync of git-backed projects and stacks: each redeploys only when its own files changed. */
export class GitSync {
  private timer: NodeJS.Timeout | null = null;
  private readonly lastPoll = new Map<string, number>();

  constructor(
    private readonly repo: GitRepo,
    private readonly sources: GitSourcesService,
    private readonly hookKey: Uint8Array,
    private readonly deps: {
      scope: (environment: string) => GitScope;
      audit: (r: AuditRecord) => void;
      onFailed: (environment: string, f: ComposeFailure) => void;
      log: { warn: (o: object, msg: string) => void };
    },
  ) {}

  /** POST /api/hooks/git/{hook_id}: 401 for an unknown hook or a wrong signature (the same answer). */
  async hook(hookId: string, headers: Record<string, unknown>, body: Buffer): Promise<{ results: HookOutcome[] }> {
    const hook = this.repo.hook(hookId);
    if (!hook || !verifyHook(open(this.hookKey, hook.secret_sealed), headers, body))
      throw new UnauthorizedError('The webhook signature does not match its secret.');
    const pushed = pushedRef(body);
    const results: HookOutcome[] = [];
    for (const row of this.repo.sourcesOfHook(hookId)) {
      const base = { environment: row.environment, kind: row.kind, project: row.name };
      if (pushed !== null && !refMatches(pushed, row.ref)) {
        results.push({
          ...base,
          outcome: 'skipped',
          detail: `the push was to ${pushed}, the ${row.kind} follows ${row.ref}`,
        });
        continue;
      }
      results.push({ ...base, ...(await this.check(row, 'webhook')) });
    }
    return { results };
  }

  /**
   * Fetches one project's ref; when the new commit changes its own files, deploys it in the
   * background (the audit entry names the plan; a failure is notified).
   */
  private async check(row: GitSourceRow, via: string): Promise<Pick<HookOutcome, 'outcome' | 'detail'>> {
    let scope: GitScope;
    try {
      scope = this.deps.scope(row.environment);
      const { co } = await this.sources.find(scope, row.kind, row.name);
      const fresh = await this.sources.fetch(scope, row, co);
      const base = fresh.deployed_commit ?? (await co.head());
      if (!fresh.latest_commit || fresh.latest_commit === base) return { outcome: 'unchanged', detail: null };
      const changed = base ? await co.changed(base, fresh.latest_commit) : null;
      if (changed && !changed.some((f) => ownsChange(row, f)))
        return { outcome: 'unchanged', detail: 'the push changed none of its files' };
    } catch (err) {
      return { outcome: 'failed', detail: err instanceof Error ? err.message : String(err) };
    }
    void this.autoDeploy(scope, row, via);
    return { outcome: 'deploying', detail: null };
  }

  private async autoDeploy(scope: GitScope, { kind, name }: GitSourceRow, via: string): Promise<void> {
    const entry = {
      user: GIT_SYNC_ACTOR.username,
      client: via,
      method: 'POST',
      route: 'git auto-deploy',
      target: kind === 'project' ? name : `stack ${name}`,
    };
    try {
      const { plan, git } = await this.sources.deploy(scope, kind, name, GIT_SYNC_ACTOR);
      this.deps.audit({
        ...entry,
        status: 200,
        summary: `Deployed ${git.head_commit?.slice(0, 12)} of ${name} on ${scope.id} (${via}); plan: ${planSummary(plan)}`,
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.deps.audit({ ...entry, status: 500, summary: `Auto-deploy of ${name} on ${scope.id} failed: ${message}` });
      // A failed compose `up` was notified by the compose action itself (a stack deploy notifies nothing).
      if (!(err instanceof ComposeFailedError) || kind === 'stack')
        this.deps.onFailed(scope.id, {
          project: name,
          action: kind === 'stack' ? 'stack deploy from git' : 'git deploy',
          service: null,
        });
    }
  }

  /** Starts the poller: each minute, the projects whose interval has passed are checked. */
  start(): void {
    this.timer ??= setInterval(() => void this.pollDue(Date.now()), 60_000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Checks each polled project whose interval has passed at `now`; returns what each did. */
  async pollDue(now: number): Promise<HookOutcome[]> {
    const out: HookOutcome[] = [];
    for (const row of this.repo.sources()) {
      if (row.sync_policy !== 'poll') continue;
      const key = `${row.environment}/${row.kind}/${row.name}`;
      const last = this.lastPoll.get(key) ?? Date.parse(row.last_fetch_at ?? row.created_at);
      if (now - last < (row.poll_minutes ?? 60) * 60_000) continue;
      this.lastPoll.set(key, now);
      const r = await this.check(row, 'poll');
      if (r.outcome === 'failed') this.deps.log.warn({ [row.kind]: row.name, detail: r.detail }, 'git poll failed');
      out.push({ environment: row.environment, kind: row.kind, project: row.name, ...r });
    }
    return out;
  }
}
