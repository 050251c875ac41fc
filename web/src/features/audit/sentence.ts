import type { AuditEntry } from '@berth/contract';

/** What a call did, as a verb phrase (its first word is put in the past tense) and its object, `{param}` from the route. */
type Phrase = readonly [verb: string, object: string];

const APP = 'app {name}';
const PHRASES: Record<string, Phrase> = {
  'POST /api/apps/actions/{name}/{action}': ['{action}', APP],
  'POST /api/apps/{name}/update': ['update', APP],
  'POST /api/apps/deploy': ['deploy', 'app {target}'],
  'POST /api/apps/{name}/rename': ['rename', APP],
  'PATCH /api/apps/{name}/resources': ['change the limits of', APP],
  'POST /api/apps/{name}/networks/{network}/connect': ['connect', 'app {name} to network {network}'],
  'POST /api/apps/{name}/networks/{network}/disconnect': ['disconnect', 'app {name} from network {network}'],
  'POST /api/apps/{name}/commit': ['commit', 'app {name} to an image'],
  'PUT /api/apps/{name}/files/content': ['write a file in', APP],
  'POST /api/apps/{name}/files/upload': ['upload a file to', APP],
  'DELETE /api/apps/{name}/files': ['delete a file in', APP],
  'POST /api/apps/{name}/files/mkdir': ['make a folder in', APP],
  'POST /api/auth/login': ['sign in', ''],
  'POST /api/auth/login/totp': ['sign in with a two-factor code', ''],
  'POST /api/auth/oidc/link': ['link single sign-on to their account', ''],
  'POST /api/auth/totp/setup': ['start two-factor setup', ''],
  'POST /api/auth/totp/enable': ['turn on two-factor sign-in', ''],
  'POST /api/auth/totp/disable': ['turn off two-factor sign-in', ''],
  'DELETE /api/auth/sessions/{id}': ['end', 'session {id}'],
  'POST /api/auth/refresh': ['refresh their session', ''],
  'GET /api/auth/logout': ['sign out', ''],
  'GET /api/auth/logout/refresh': ['sign out', ''],
  'POST /api/auth/me': ['change their email or password', ''],
  'POST /api/auth/api/keys/new': ['generate', 'API key {target}'],
  'DELETE /api/auth/api/keys/{id}': ['revoke', 'API key {id}'],
  'PUT /api/settings/auto-update': ['change', 'the auto-update policy'],
  'POST /api/settings/auto-update/run': ['start', 'an auto-update run'],
  'PUT /api/apps/{name}/auto-update': ['set the auto-update of', APP],
  'PUT /api/compose/{name}/auto-update': ['set the auto-update of', 'project {name}'],
  'PUT /api/settings/auto-heal': ['change', 'the auto-heal default'],
  'PUT /api/apps/{name}/auto-heal': ['set the auto-heal of', APP],
  'PUT /api/compose/{name}/services/{service}/auto-heal': [
    'set the auto-heal of',
    'service {service} of project {name}',
  ],
  'POST /api/apps/{name}/auto-heal/reset': ['reset the auto-heal of', APP],
  'POST /api/compose/{name}/services/{service}/auto-heal/reset': [
    'reset the auto-heal of',
    'service {service} of project {name}',
  ],
  'POST auto-heal restart': ['restart', 'app {target}'],
  'POST /api/environments': ['add', 'environment {target}'],
  'PATCH /api/environments/{env}': ['change', 'environment {env}'],
  'DELETE /api/environments/{env}': ['remove', 'environment {env}'],
  'POST /api/environments/{env}/test': ['test', 'environment {env}'],
  'POST /api/environments/agents': ['add', 'agent environment {target}'],
  'POST /api/environments/{env}/agent/token': ['make a new agent token for', 'environment {env}'],
  'POST /api/environments/{env}/agent/revoke': ['revoke the agent of', 'environment {env}'],
  'PUT /api/resources/volumes/{name}/files/content': ['write a file in', 'volume {name}'],
  'POST /api/resources/volumes/{name}/files/upload': ['upload a file to', 'volume {name}'],
  'DELETE /api/resources/volumes/{name}/files': ['delete a file in', 'volume {name}'],
  'POST /api/resources/volumes/{name}/files/mkdir': ['make a folder in', 'volume {name}'],
  'POST /api/compose/{name}/revisions/{rev}/rollback': ['roll back', 'project {name} to revision {rev}'],
  'POST /api/apps/{name}/revisions/{rev}/rollback': ['roll back', 'app {name} to revision {rev}'],
  'PUT /api/environments/{env}/policy': ['change the operator policy of', 'environment {env}'],
  'POST /api/registries': ['add', 'registry {target}'],
  'PATCH /api/registries/{id}': ['change', 'registry {id}'],
  'DELETE /api/registries/{id}': ['remove', 'registry {id}'],
  'POST /api/registries/{id}/test': ['test', 'registry {id}'],
  'POST /api/registries/test': ['test', 'a registry before saving it'],
  'POST /api/resources/images/': ['pull', 'image {target}'],
  'DELETE /api/resources/images/{id}': ['delete', 'image {id}'],
  'DELETE /api/resources/images/{id}/tags/{tag}': ['remove tag {tag} of', 'image {id}'],
  'POST /api/resources/images/{id}/pull': ['pull again', 'image {id}'],
  'POST /api/resources/images/batch': ['delete', 'image {target}'],
  'POST /api/resources/images/build': ['build', 'image {target}'],
  'POST /api/resources/images/{id}/tag': ['tag', 'image {id}'],
  'POST /api/resources/images/{id}/push': ['push', 'image {id}'],
  'GET /api/resources/images/{id}/export': ['export', 'image {id}'],
  'GET /api/resources/images/batch/export': ['export', 'images'],
  'POST /api/resources/images/load': ['load', 'images from a file'],
  'POST /api/resources/networks/': ['create', 'network {target}'],
  'DELETE /api/resources/networks/{id}': ['delete', 'network {id}'],
  'POST /api/resources/networks/batch': ['delete', 'network {target}'],
  'POST /api/resources/volumes/': ['create', 'volume {target}'],
  'DELETE /api/resources/volumes/{name}': ['delete', 'volume {name}'],
  'POST /api/backups/destinations': ['add', 'backup destination {target}'],
  'DELETE /api/backups/destinations/{id}': ['remove', 'backup destination {id}'],
  'POST /api/backups/destinations/{id}/test': ['test', 'backup destination {id}'],
  'POST /api/backups/jobs': ['add', 'backup job {target}'],
  'PATCH /api/backups/jobs/{id}': ['change', 'backup job {id}'],
  'DELETE /api/backups/jobs/{id}': ['remove', 'backup job {id}'],
  'POST /api/backups/jobs/{id}/run': ['run', 'backup job {id}'],
  'POST /api/backups/jobs/{id}/drill': ['run a restore drill of', 'backup job {id}'],
  'POST /api/backups/archives/{id}/verify': ['verify', 'backup archive {id}'],
  'POST /api/backups/restore': ['restore', 'a volume, project or Berth from a backup'],
  'POST /api/resources/volumes/batch': ['delete', 'volume {target}'],
  'POST /api/notifications/channels': ['add', 'notification channel {target}'],
  'PATCH /api/notifications/channels/{id}': ['change', 'notification channel {id}'],
  'DELETE /api/notifications/channels/{id}': ['remove', 'notification channel {id}'],
  'POST /api/notifications/channels/{id}/test': ['send a test message through', 'notification channel {id}'],
  'POST /api/notifications/rules': ['add', 'a notification rule'],
  'PATCH /api/notifications/rules/{id}': ['change', 'notification rule {id}'],
  'DELETE /api/notifications/rules/{id}': ['remove', 'notification rule {id}'],
  'POST /api/compose/': ['create', 'project {target}'],
  'POST /api/compose/from-git': ['create', 'project {target} from git'],
  'POST /api/compose/{name}/git/pull': ['pull the repository of', 'project {name}'],
  'POST /api/compose/{name}/git/deploy': ['deploy from git', 'project {name}'],
  'POST /api/compose/{name}/git/discard': ['discard the local edits of', 'project {name}'],
  'PATCH /api/compose/{name}/git': ['change the git source of', 'project {name}'],
  'POST /api/swarm/stacks/from-git': ['create', 'stack {target} from git'],
  'PATCH /api/swarm/stacks/{name}/git': ['change the git source of', 'stack {name}'],
  'POST /api/swarm/stacks/{name}/git/pull': ['pull the repository of', 'stack {name}'],
  'POST /api/swarm/stacks/{name}/git/deploy': ['deploy from git', 'stack {name}'],
  'POST /api/swarm/stacks/{name}/git/discard': ['discard the local edits of', 'stack {name}'],
  'POST /api/git/credentials': ['add', 'git credential {target}'],
  'PATCH /api/git/credentials/{id}': ['change', 'git credential {id}'],
  'DELETE /api/git/credentials/{id}': ['remove', 'git credential {id}'],
  'POST /api/hooks/git/{hook_id}': ['deliver', 'a git push webhook'],
  'POST /api/compose/{name}/adopt': ['adopt', 'project {name}'],
  'PUT /api/compose/{name}/env': ['change the .env of', 'project {name}'],
  'POST /api/compose/{name}/env/reveal': ['reveal the .env of', 'project {name}'],
  'POST /api/compose/convert-run': ['convert', 'a docker run command'],
  'POST /api/compose/from-template': ['create', 'project {target} from a template'],
  'POST /api/compose/{name}/edit': ['save', 'project {name}'],
  'POST /api/compose/{name}/actions/{action}': ['{action}', 'project {name}'],
  'POST /api/compose/{project}/actions/{action}/{service}': ['{action}', 'service {service} of project {project}'],
  'POST /api/compose/batch': ['{action}', 'project {target}'],
  'POST /api/apps/actions/batch': ['{action}', 'app {target}'],
  'POST /api/settings/prune/{resource}': ['prune', 'unused {resource}'],
  'POST /api/settings/export': ['import', 'a settings file'],
  'POST /api/settings/update': ['update', 'Berth'],
  'POST /api/swarm/nodes/{id}': ['change', 'swarm node {id}'],
  'POST /api/swarm/services': ['create', 'swarm service {target}'],
  'POST /api/swarm/services/{id}': ['change', 'swarm service {id}'],
  'POST /api/swarm/services/{id}/rollback': ['roll back', 'swarm service {id}'],
  'DELETE /api/swarm/services/{id}': ['remove', 'swarm service {id}'],
  'POST /api/swarm/stacks': ['deploy', 'stack {target}'],
  'POST /api/swarm/stacks/{name}': ['deploy', 'stack {name}'],
  'POST /api/swarm/stacks/from-template': ['create', 'stack {target} from a template'],
  'DELETE /api/swarm/stacks/{name}': ['remove', 'stack {name}'],
  'POST /api/swarm/configs': ['create', 'swarm config {target}'],
  'DELETE /api/swarm/configs/{id}': ['remove', 'swarm config {id}'],
  'POST /api/swarm/secrets': ['create', 'swarm secret {target}'],
  'DELETE /api/swarm/secrets/{id}': ['remove', 'swarm secret {id}'],
  'POST /api/templates/': ['add', 'template source {target}'],
  'DELETE /api/templates/{id}': ['delete', 'template source {id}'],
  'GET /api/templates/{id}/refresh': ['refresh', 'template source {id}'],
  'POST /api/users': ['add', 'user {target}'],
  'PATCH /api/users/{id}': ['change', 'user {id}'],
  'DELETE /api/users/{id}/sessions': ['end every session of', 'user {id}'],
  'DELETE /api/users/{id}': ['delete', 'user {id}'],
  'POST /api/settings/variables': ['save', 'the template variables'],
};

const IRREGULAR: Record<string, string> = {
  up: 'brought up',
  down: 'took down',
  stop: 'stopped',
  commit: 'committed',
  tag: 'tagged',
  set: 'set',
  make: 'made',
  write: 'wrote',
  send: 'sent',
  build: 'built',
  run: 'ran',
  pull: 'pulled',
};

/** `stop the app` → `stopped the app`: the first word in the past tense. */
export function pastTense(verb: string): string {
  const [first = '', ...rest] = verb.split(' ');
  const past = IRREGULAR[first] ?? (first.endsWith('e') ? `${first}d` : `${first}ed`);
  return [past, ...rest].join(' ');
}

/** An environment route is recorded under /api/environments/{env}/… too; its phrase is the spec path's. */
const ENV_PREFIX = /^\/api\/environments\/\{env\}(?=\/)/;

/** The route's `{param}` names in order, matched to the entry's target (path parameters joined by `/`). */
function params(route: string, target: string | null): Record<string, string> {
  const names = [...route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const parts = target ? target.split('/') : [];
  // A value with a slash (an image tag of a registry path) keeps its slashes: the last name takes what is left.
  const extra = parts.length > names.length ? parts.splice(names.length - 1).join('/') : null;
  if (extra !== null) parts.push(extra);
  return Object.fromEntries(names.map((n, i) => [n, parts[i] ?? '?']));
}

function who(user: string | null): string {
  if (user === null) return 'Someone not signed in';
  if (user === 'unknown user') return 'An unknown user';
  return user;
}

/**
 * One audit entry as a sentence: "admin@berth.local deleted volume t3walk-data", "… tried to stop
 * app web (refused: 409)". The route, client and the API reference's summary stay in the details.
 */
export function auditSentence(e: AuditEntry): string {
  const env = / \(environment ([^)]+)\)$/.exec(e.summary)?.[1];
  // The environments' own routes (…/{env}/test) first, then the spec path of an environment route.
  const find = (route: string) =>
    // The GET (or POST) alias of an action reads like the action.
    PHRASES[`${e.method} ${route}`] ??
    Object.entries(PHRASES).find(([k]) => k.slice(k.indexOf(' ') + 1) === route)?.[1];
  const scoped = e.route.replace(ENV_PREFIX, '/api');
  const route = find(e.route) ? e.route : scoped;
  const phrase = find(route);
  const failed = e.status >= 400;
  let text: string;
  if (phrase) {
    const batch = route.endsWith('/batch') ? / \(one of (\d+)\)/.exec(e.summary)?.[1] : undefined;
    const values: Record<string, string> = {
      ...params(route, batch === undefined ? e.target : null),
      target: e.target ?? '?',
      // A batch's entry begins with its action ("stop web (one of 3)").
      ...(batch !== undefined ? { action: e.summary.split(' ')[0] ?? 'change' } : {}),
    };
    const fill = (s: string) => s.replace(/\{(\w+)\}/g, (_, n: string) => values[n] ?? '?');
    const verb = fill(phrase[0]);
    const object = fill(phrase[1]);
    const what = object ? ` ${object}` : '';
    text = failed ? `tried to ${verb}${what}` : `${pastTense(verb)}${what}`;
    if (batch !== undefined) text += ` (one of ${batch})`;
  } else {
    const summary = e.summary.replace(/ \(environment [^)]+\)$/, '');
    text = `${failed ? 'tried to call' : 'called'} "${summary}"${e.target ? ` on ${e.target}` : ''}`;
  }
  return `${who(e.user)} ${text}${env ? ` on environment ${env}` : ''}${failed ? ` (refused: ${e.status})` : ''}`;
}
