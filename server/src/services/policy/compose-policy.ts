import { composePolicyFeatures } from '@berth/contract/compose-schema';
import { locate } from '@berth/contract/compose-schema';
import type { ParsedCompose } from '../../compose/document';
import { interpolate, InterpolationError } from '../../compose/interpolate';
import { checkFileReferences } from '../../compose/references';
import { ValidationError } from '../../errors';
import type { Actor, PolicyGate } from './policy';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The document as the CLI will see it: every string value interpolated with `env` (keys are not,
 * as in compose). A value compose could not interpolate is refused here, so no odd form passes
 * our judgement as a harmless string and becomes a path in the CLI.
 */
export function interpolateDocument(data: unknown, env: Readonly<Record<string, string>>, at: string[] = []): unknown {
  if (typeof data === 'string') {
    try {
      return interpolate(data, env);
    } catch (err) {
      if (!(err instanceof InterpolationError)) throw err;
      const field = at.join('.') || 'content';
      throw new ValidationError(`${field}: ${err.message}`, [{ field, message: err.message }]);
    }
  }
  if (Array.isArray(data)) return data.map((v, i) => interpolateDocument(v, env, [...at, String(i)]));
  if (isRecord(data))
    return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, interpolateDocument(v, env, [...at, k])]));
  return data;
}

/**
 * The one compose-document policy, for every path that hands a document to a CLI (projects,
 * their .env, up/create/pull, stacks, templates): files it makes the CLI read stay inside its
 * folder, and what it asks of the engine (binds, privileged, host namespaces...) is judged for
 * the actor, on the fully interpolated document with merge keys honoured.
 */
export async function checkComposePolicy(
  gate: PolicyGate,
  actor: Actor,
  parsed: ParsedCompose,
  env: Readonly<Record<string, string>>,
  dir: string,
  /** The project's (or stack's) name: the CLI's `-p`, which names the volumes the file does not. */
  project: string,
): Promise<void> {
  checkFileReferences(parsed.data, env);
  if (actor.role === 'admin') return;
  const data = interpolateDocument(parsed.data, env) as Record<string, unknown>;
  await gate.check(actor, composePolicyFeatures(data, { project }), {
    base: dir,
    ownDirs: [dir],
    locate: (at) => {
      const span = locate(parsed.doc, at);
      return span ? parsed.lines.linePos(span.from) : null;
    },
  });
}
