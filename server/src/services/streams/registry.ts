import type { FastifyRequest } from 'fastify';
import { roleAllows, type Role } from '@berth/contract';
import { TooManyRequestsError } from '../../errors';
import type { LiveStreamSlot, LiveStreamTracker } from '../../lib/live-streams';

/** Who holds an open stream and what the route needed. */
interface Entry {
  /** null with DISABLE_AUTH (nobody to tell apart) and on open routes. */
  userId: number | null;
  sessionId?: string;
  keyId?: number;
  need: Role | undefined;
  abort: AbortController;
}

/** Who holds a stream, as the periodic check sees it. */
export type StreamHolder = Pick<Entry, 'userId' | 'sessionId' | 'keyId' | 'need'>;
/** Why a holder may no longer keep its stream (a sentence for the user), or null while it may. */
export type HolderCheck = (holder: StreamHolder & { userId: number }) => string | null;

/** How often every open stream's holder is checked again (sessions also end by time, not only by a call). */
const CHECK_EVERY_MS = 60_000;

/** How a stream's holder lost the right to it, for the revocation calls below. */
export interface StreamRevoker {
  revokeUser(userId: number, reason: string): number;
  roleChanged(userId: number, role: Role, reason: string): number;
  revokeSessions(userId: number, reason: string): number;
  revokeSession(sessionId: string, reason: string): number;
  revokeKeys(userId: number, reason: string): number;
  revokeKey(keyId: number, reason: string): number;
}

/**
 * Every open live stream (SSE answers and WebSockets, all environments) by user, session and
 * API key. It caps them (per user and in total: each holds a socket and often an engine stream)
 * and ends them when their holder loses the right: the auth services call the revoke methods
 * after a role change, a disable or delete, ended sessions, a password change or a revoked key,
 * and each stream's owner ends it on its slot's `revoked` signal (an SSE `end` event, a terminal hang-up).
 */
export class StreamRegistry implements LiveStreamTracker, StreamRevoker {
  private readonly entries = new Set<Entry>();
  private readonly perUser = new Map<number, number>();
  private check: HolderCheck | null = null;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly limits: { maxPerUser: number; maxTotal: number }) {}

  /**
   * A safety net beside the revoke calls: every minute each holder is checked again (an expired
   * session, a change made where no revoke call is), so no stream outlives its right by long.
   */
  watch(check: HolderCheck): void {
    this.check = check;
    clearInterval(this.timer);
    this.timer = setInterval(() => this.sweep(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  /** Checks every holder now; returns how many streams it ended. */
  sweep(): number {
    let n = 0;
    for (const e of this.entries) {
      if (e.userId === null || e.abort.signal.aborted || !this.check) continue;
      const refusal = this.check({ ...e, userId: e.userId });
      if (refusal === null) continue;
      e.abort.abort(refusal);
      n += 1;
    }
    return n;
  }

  close(): void {
    clearInterval(this.timer);
  }

  open(req: FastifyRequest): LiveStreamSlot {
    const p = req.principal;
    const userId = p && p.via !== 'disabled' ? p.userId : null;
    if (this.entries.size >= this.limits.maxTotal)
      throw new TooManyRequestsError(
        `The server has ${this.entries.size} live streams open, its limit (STREAMS_MAX_TOTAL); try again when some have closed.`,
        5,
      );
    const used = userId === null ? 0 : this.count(userId);
    if (userId !== null && used >= this.limits.maxPerUser)
      throw new TooManyRequestsError(
        `You already have ${used} live streams open (logs, stats, events and terminals; the limit is ${this.limits.maxPerUser}). Close some pages or tabs first.`,
        5,
      );
    const entry: Entry = {
      userId,
      ...(p?.sessionId ? { sessionId: p.sessionId } : {}),
      ...(p?.keyId !== undefined ? { keyId: p.keyId } : {}),
      need: req.routeOptions.config.role,
      abort: new AbortController(),
    };
    this.entries.add(entry);
    if (userId !== null) this.perUser.set(userId, used + 1);
    let released = false;
    return {
      revoked: entry.abort.signal,
      release: () => {
        if (released) return;
        released = true;
        this.entries.delete(entry);
        if (userId === null) return;
        const left = this.count(userId) - 1;
        if (left > 0) this.perUser.set(userId, left);
        else this.perUser.delete(userId);
      },
    };
  }

  /** Open streams of a user, or of everyone. */
  count(userId?: number): number {
    return userId === undefined ? this.entries.size : (this.perUser.get(userId) ?? 0);
  }

  /** Disabled or deleted: every stream of the user. */
  revokeUser(userId: number, reason: string): number {
    return this.revokeWhere((e) => e.userId === userId, reason);
  }

  /** A new role: the streams whose route needs more than it. */
  roleChanged(userId: number, role: Role, reason: string): number {
    return this.revokeWhere((e) => e.userId === userId && e.need !== undefined && !roleAllows(role, e.need), reason);
  }

  /** Every session ended (by an admin, or a password change): the streams opened with one of them. */
  revokeSessions(userId: number, reason: string): number {
    return this.revokeWhere((e) => e.userId === userId && e.sessionId !== undefined, reason);
  }

  revokeSession(sessionId: string, reason: string): number {
    return this.revokeWhere((e) => e.sessionId === sessionId, reason);
  }

  /** Every key of the user revoked: the streams opened with one of them. */
  revokeKeys(userId: number, reason: string): number {
    return this.revokeWhere((e) => e.userId === userId && e.keyId !== undefined, reason);
  }

  revokeKey(keyId: number, reason: string): number {
    return this.revokeWhere((e) => e.keyId === keyId, reason);
  }

  private revokeWhere(match: (e: Entry) => boolean, reason: string): number {
    let n = 0;
    for (const e of this.entries) {
      if (!match(e) || e.abort.signal.aborted) continue;
      e.abort.abort(reason);
      n += 1;
    }
    return n;
  }
}
