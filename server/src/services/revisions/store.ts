import type { AppRevision, ProjectRevision, RevisionImage, RevisionOutcome, RevisionSource } from '@berth/contract';
import type { Db } from '../../db/database';
import { RevisionsRepo, type AppRevisionRow, type ProjectRevisionRow } from '../../db/revisions-repo';
import { deriveKey, open, seal } from '../../lib/secret-box';

/** Who recorded a revision, how, and how it went. */
export interface RevisionMeta {
  by: string;
  source: RevisionSource;
  outcome: RevisionOutcome;
  detail?: string | null;
  /** The git commit deployed (git-backed projects). */
  commit?: string | null;
  rollbackOf?: number | null;
}

/**
 * The revisions of every environment: one table per kind, the key that seals .env files and
 * container specs (secret-box, purpose "revisions"), and how many are kept per name.
 */
export class RevisionStore {
  private readonly key: Buffer;
  readonly repo: RevisionsRepo;

  constructor(
    db: Db,
    signingKey: Uint8Array,
    /** Revisions kept per project and per app (REVISIONS_KEPT). */
    readonly keep: number,
  ) {
    this.repo = new RevisionsRepo(db);
    this.key = deriveKey(signingKey, 'revisions');
  }

  seal(text: string): string {
    return seal(this.key, text);
  }

  /** The plaintext, or null when it was sealed under another signing key. */
  open(sealed: string): string | null {
    try {
      return open(this.key, sealed);
    } catch {
      return null;
    }
  }
}

const base = (r: ProjectRevisionRow | AppRevisionRow) => ({
  rev: r.rev,
  created_at: r.created_at,
  created_by: r.created_by,
  source: r.source as RevisionSource,
  outcome: r.outcome as RevisionOutcome,
  detail: r.detail,
  rollback_of: r.rollback_of,
});

export const projectRevisionOf = (r: ProjectRevisionRow): ProjectRevision => ({
  ...base(r),
  commit: r.commit_sha,
  images: JSON.parse(r.digests) as RevisionImage[],
});

export const appRevisionOf = (r: AppRevisionRow): AppRevision => ({ ...base(r), image: r.image, digest: r.digest });
