import path from 'node:path';
import type { BackupDestination, DestinationTestResult, NewBackupDestination } from '@berth/contract';
import type { BackupsRepo, DestinationRow } from '../../db/backups-repo';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../errors';
import { folderStore, sftpStore, type ArchiveStore, type SftpSecret } from './destinations';
import { s3Endpoint, s3Store, type S3Config, type S3Secret } from './s3-store';

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

const inside = (child: string, parent: string) => {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** Backup destinations: a folder on the host, SFTP or an S3 bucket (secrets sealed, write-only). */
export class DestinationsService {
  constructor(
    private readonly repo: BackupsRepo,
    private readonly box: SecretBox,
    private readonly dirs: { composeDir: string; dataDir: string },
  ) {}

  list(): BackupDestination[] {
    return this.repo.destinations().map(view);
  }

  async create(body: NewBackupDestination): Promise<BackupDestination> {
    if (this.repo.nameTaken('backup_destinations', body.name))
      throw new ConflictError(`A destination named ${body.name} already exists.`);
    let config: object;
    let secret: SftpSecret | S3Secret | null = null;
    if (body.kind === 'folder') {
      const at = path.resolve(body.path);
      if (inside(at, this.dirs.composeDir) || inside(this.dirs.composeDir, at))
        throw new ValidationError(`The backup folder must be outside COMPOSE_DIR (${this.dirs.composeDir}).`, [
          { field: 'path', message: 'inside or around COMPOSE_DIR' },
        ]);
      if (inside(at, this.dirs.dataDir))
        throw new ValidationError(`The backup folder must be outside Berth's data folder (${this.dirs.dataDir}).`, [
          { field: 'path', message: "inside Berth's data folder" },
        ]);
      config = { path: at };
    } else if (body.kind === 's3') {
      const endpoint = s3Endpoint(body.endpoint || null);
      const s3: S3Config = {
        endpoint,
        region: body.region,
        bucket: body.bucket,
        prefix: body.prefix.replace(/^\/+|\/+$/g, ''),
        access_key_id: body.access_key_id,
        path_style: body.addressing === 'auto' ? endpoint !== null : body.addressing === 'path',
      };
      config = s3;
      secret = { secret_access_key: body.secret_access_key };
    } else {
      if (!body.password && !body.private_key)
        throw new ValidationError('SFTP needs a password or a private key.', [
          { field: 'password', message: 'a password or a private key' },
        ]);
      config = { host: body.host, port: body.port, username: body.username, path: body.path, host_key: body.host_key };
      secret = {
        ...(body.password ? { password: body.password } : {}),
        ...(body.private_key ? { private_key: body.private_key } : {}),
      };
    }
    const row: Omit<DestinationRow, 'id'> = {
      name: body.name,
      kind: body.kind,
      config: JSON.stringify(config),
      secret_sealed: secret ? this.box.seal(JSON.stringify(secret)) : null,
      created_at: new Date().toISOString(),
    };
    // Proven writable before it is kept.
    await storeOf({ ...row, id: 0 }, this.box).check();
    return view({ ...row, id: this.repo.insertDestination(row) });
  }

  remove(id: number): { removed: true } {
    if (this.repo.destinationInUse(id)) throw new ConflictError('A backup job uses this destination; remove it first.');
    if (!this.repo.removeDestination(id)) throw new NotFoundError('destination', String(id));
    return { removed: true };
  }

  /** Writes and removes a small file at a stored destination; a failure is the answer, not an error. */
  async test(id: number): Promise<DestinationTestResult> {
    const row = this.row(id);
    try {
      await storeOf(row, this.box).check();
      return { ok: true, detail: `${row.name} is reachable and writable.` };
    } catch (err) {
      return { ok: false, detail: err instanceof AppError ? err.message : `${row.name} failed: ${String(err)}` };
    }
  }

  row(id: number): DestinationRow {
    const row = this.repo.destination(id);
    if (!row) throw new NotFoundError('destination', String(id));
    return row;
  }

  store(id: number): ArchiveStore {
    return storeOf(this.row(id), this.box);
  }
}

function storeOf(row: DestinationRow, box: SecretBox): ArchiveStore {
  const cfg = JSON.parse(row.config);
  if (row.kind === 'folder') return folderStore(cfg);
  if (row.kind === 's3') return s3Store(cfg, JSON.parse(box.open(row.secret_sealed ?? '')) as S3Secret);
  return sftpStore(cfg, row.secret_sealed ? (JSON.parse(box.open(row.secret_sealed)) as SftpSecret) : {});
}

function view(row: DestinationRow): BackupDestination {
  const cfg = JSON.parse(row.config) as Record<string, unknown>;
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    path: String(cfg.path ?? cfg.prefix),
    host: (cfg.host as string) ?? null,
    port: (cfg.port as number) ?? null,
    username: (cfg.username as string) ?? null,
    host_key: (cfg.host_key as string) ?? null,
    endpoint: (cfg.endpoint as string) ?? null,
    region: (cfg.region as string) ?? null,
    bucket: (cfg.bucket as string) ?? null,
    access_key_id: (cfg.access_key_id as string) ?? null,
    has_secret: row.secret_sealed !== null,
    created_at: row.created_at,
  };
}
