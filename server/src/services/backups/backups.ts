import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { Cron } from 'croner';
import { BERTH_ARCHIVE_WARNING } from '@berth/contract';
import type {
  BackupArchive,
  BackupJob,
  BackupManifest,
  BackupRun,
  NewBackupJob,
  PatchBackupJob,
  RestoreBody,
  RestoreResult,
} from '@berth/contract';
import type { BackupsRepo, JobRow } from '../../db/backups-repo';
import { ConflictError, NotFoundError, ValidationError } from '../../errors';
import type { NotifyInput } from '../notifications';
import type { DestinationsService, SecretBox } from './destinations-service';
import { openArchive, produceArchive } from './archive-pipeline';
import { message, sectionOf, slug, stamp } from './archive-names';
import { checkSchedules, jobView, patchedRow } from './job-config';
import { readWithProgress, type OnRestoreProgress } from './restore-progress';
import { restoreBerth, restoreProject, restoreVolume, type RestoreKit } from './restores';
import { expiredArchives } from './retention';
import { checkFolders, jobTarget, packTarget, targetLabel, targetOf } from './targets';
import { unpackSections, volumeSink, type VolumeAccess } from './volume-archive';

export interface BackupsDeps {
  repo: BackupsRepo;
  destinations: DestinationsService;
  box: SecretBox;
  /** The engine, helper containers and COMPOSE_DIR of an environment (404 for an unknown one). */
  access: (environment: string) => VolumeAccess & { composeDir: string };
  /** Berth's data folder (a Berth target reads it; a Berth restore never writes into it). */
  dataDir: string;
  notify: (n: NotifyInput) => void;
  log: { warn: (obj: object, msg: string) => void };
  /** age's scrypt work factor (tests make it cheap). */
  scryptLogN?: number;
}

/** Backup jobs, their runs, archives, restores and restore drills (issue 35). */
export class BackupsService {
  private readonly crons = new Map<number, Cron[]>();

  constructor(private readonly d: BackupsDeps) {}

  /** Schedules every stored job (called once at start). */
  start(): void {
    for (const job of this.d.repo.jobs()) this.schedule(job);
  }
  stop(): void {
    for (const list of this.crons.values()) for (const c of list) c.stop();
    this.crons.clear();
  }

  private schedule(job: JobRow): void {
    const list: Cron[] = [];
    const quiet = (p: Promise<unknown>) => p.catch((err) => this.d.log.warn({ err, job: job.name }, 'backup job'));
    if (job.schedule) list.push(new Cron(job.schedule, { protect: true }, () => void quiet(this.run(job.id))));
    if (job.drill_schedule)
      list.push(new Cron(job.drill_schedule, { protect: true }, () => void quiet(this.drill(job.id))));
    this.crons.set(job.id, list);
  }

  jobs(): BackupJob[] {
    return this.d.repo.jobs().map((j) => this.view(j));
  }

  async createJob(body: NewBackupJob): Promise<BackupJob> {
    if (this.d.repo.nameTaken('backup_jobs', body.name))
      throw new ConflictError(`A backup job named ${body.name} already exists.`);
    this.d.destinations.row(body.destination_id);
    const target = await jobTarget(body, this.d.access(body.environment));
    checkSchedules(body);
    const row: Omit<JobRow, 'id'> = {
      name: body.name,
      environment: body.environment,
      volumes: JSON.stringify(target.kind === 'volumes' ? target.volumes : []),
      target: JSON.stringify(target),
      destination_id: body.destination_id,
      schedule: body.schedule,
      drill_schedule: body.drill_schedule,
      keep_last: body.keep_last,
      keep_daily: body.keep_daily,
      keep_weekly: body.keep_weekly,
      passphrase_sealed: body.passphrase ? this.d.box.seal(body.passphrase) : null,
      created_at: new Date().toISOString(),
    };
    const id = this.d.repo.insertJob(row);
    this.schedule({ ...row, id });
    return this.view({ ...row, id });
  }

  /** Changes a job (only the fields given) and schedules it anew. */
  async updateJob(id: number, body: PatchBackupJob): Promise<BackupJob> {
    const job = this.job(id);
    if (body.target) await jobTarget(body, this.d.access(job.environment));
    if (body.name !== undefined && body.name !== job.name && this.d.repo.nameTaken('backup_jobs', body.name))
      throw new ConflictError(`A backup job named ${body.name} already exists.`);
    if (body.destination_id !== undefined) this.d.destinations.row(body.destination_id);
    checkSchedules(body);
    const next = patchedRow(job, body);
    this.d.repo.updateJob(next);
    this.unschedule(id);
    this.schedule(next);
    return this.view(next);
  }

  private unschedule(id: number): void {
    for (const c of this.crons.get(id) ?? []) c.stop();
    this.crons.delete(id);
  }

  removeJob(id: number): { removed: true } {
    this.unschedule(id);
    if (!this.d.repo.removeJob(id)) throw new NotFoundError('backup job', String(id));
    return { removed: true };
  }

  runs(jobId?: number): BackupRun[] {
    return this.d.repo.runs(jobId);
  }

  archives(jobId?: number): BackupArchive[] {
    return this.d.repo.archives(jobId).map((a) => ({ ...a, manifest: JSON.parse(a.manifest) as BackupManifest }));
  }

  private job(id: number): JobRow {
    const job = this.d.repo.job(id);
    if (!job) throw new NotFoundError('backup job', String(id));
    return job;
  }

  private view(j: JobRow): BackupJob {
    return jobView(j, this.d.repo);
  }

  /** Runs `work` as a recorded run; a failure is recorded (and notified) and answered as the failed run. */
  private async recorded(
    jobId: number | null,
    kind: BackupRun['kind'],
    work: () => Promise<{ bytes: number | null; archive: string | null }>,
    onFail?: (err: unknown) => void,
  ): Promise<BackupRun> {
    const id = this.d.repo.startRun(jobId, kind, new Date().toISOString());
    try {
      const { bytes, archive } = await work();
      this.d.repo.finishRun(id, { outcome: 'ok', bytes, archive, error: null, finished_at: new Date().toISOString() });
    } catch (err) {
      this.d.repo.finishRun(id, {
        outcome: 'failed',
        bytes: null,
        archive: null,
        error: message(err),
        finished_at: new Date().toISOString(),
      });
      onFail?.(err);
    }
    return this.d.repo.run(id);
  }

  /** Backs a job's volumes up now into one archive, then applies its retention. */
  async run(jobId: number): Promise<BackupRun> {
    const job = this.job(jobId);
    const target = targetOf(job);
    return this.recorded(
      job.id,
      'backup',
      async () => {
        const access = this.d.access(job.environment);
        const dest = this.d.destinations.row(job.destination_id);
        const destinationFolder = dest.kind === 'folder' ? (JSON.parse(dest.config) as { path: string }).path : null;
        const store = this.d.destinations.store(job.destination_id);
        const passphrase = job.passphrase_sealed ? this.d.box.open(job.passphrase_sealed) : null;
        const now = new Date();
        const name = `${slug(job.name)}-${stamp(now)}.tar.zst${passphrase ? '.age' : ''}`;
        const made = await produceArchive(
          (pack) =>
            packTarget(
              { access, composeDir: access.composeDir, dataDir: this.d.dataDir, destinationFolder },
              target,
              pack,
            ),
          passphrase,
          (stream) => store.put(name, stream),
          this.d.scryptLogN,
        );
        const manifest: BackupManifest = {
          format: 'berth-backup/1',
          created_at: now.toISOString(),
          job: job.name,
          environment: job.environment,
          archive: {
            name,
            bytes: made.bytes,
            sha256: made.sha256,
            compression: 'zstd',
            encryption: passphrase ? 'age' : null,
          },
          tar_bytes: made.tarBytes,
          volumes: made.filled.volumes,
          target,
          ...(made.filled.folders?.length ? { folders: made.filled.folders } : {}),
          ...(target.kind === 'berth' ? { warning: BERTH_ARCHIVE_WARNING } : {}),
        };
        await store.put(`${name}.json`, Readable.from([Buffer.from(JSON.stringify(manifest, null, 2))]));
        this.d.repo.insertArchive({
          job_id: job.id,
          destination_id: job.destination_id,
          name,
          created_at: now.toISOString(),
          bytes: made.bytes,
          manifest: JSON.stringify(manifest),
        });
        await this.retain(job);
        return { bytes: made.bytes, archive: name };
      },
      (err) =>
        this.d.notify({
          event: 'backup_failed',
          environment: job.environment,
          title: `Backup ${job.name} failed`,
          message: `The backup job ${job.name} (${targetLabel(target)}) failed: ${message(err)}`,
          details: { job: job.name },
        }),
    );
  }

  /** Applies the job's retention (retention.ts); what it does not keep is removed from its destination. */
  private async retain(job: JobRow): Promise<void> {
    const keep = { last: job.keep_last, daily: job.keep_daily, weekly: job.keep_weekly };
    const old = expiredArchives(this.d.repo.archives(job.id), keep);
    for (const a of old) {
      const store = this.d.destinations.store(a.destination_id);
      await store.remove(a.name);
      await store.remove(`${a.name}.json`);
      this.d.repo.removeArchive(a.id);
    }
  }

  /** Restore drill of the job's newest archive. */
  async drill(jobId: number): Promise<BackupRun> {
    const newest = this.d.repo.archives(this.job(jobId).id)[0];
    if (!newest) throw new ConflictError('This job has no archive to verify yet: run it first.');
    return this.verify(newest.id);
  }

  /**
   * Restores every volume of an archive into throwaway volumes, checks the archive's sha256 and
   * each tree's checksum and file count against the manifest, removes them, and records the result.
   */
  async verify(archiveId: number): Promise<BackupRun> {
    const a = this.archiveRow(archiveId);
    const manifest = JSON.parse(a.manifest) as BackupManifest;
    const job = a.job_id === null ? null : this.d.repo.job(a.job_id);
    const environment = job?.environment ?? manifest.environment;
    return this.recorded(
      a.job_id,
      'drill',
      async () => {
        const access = this.d.access(environment);
        const scratch = new Map(manifest.volumes.map((v) => [v.name, `berth-drill-${randomBytes(5).toString('hex')}`]));
        try {
          const { results, sha256 } = await this.unpack(
            a.id,
            job?.passphrase_sealed ?? null,
            undefined,
            async (section) => {
              const into = scratch.get(section);
              if (!into) return null;
              await access.docker.createVolume(into);
              return volumeSink(access, into);
            },
          );
          if (sha256 !== manifest.archive.sha256) throw new Error('The archive differs from its manifest (sha256).');
          checkFolders(manifest, results);
          for (const v of manifest.volumes) {
            const got = results.get(v.name)?.written;
            if (!got) throw new Error(`Volume ${v.name} is missing from the archive.`);
            if (got.files !== v.files || got.sha256 !== v.sha256)
              throw new Error(
                `Volume ${v.name} restored differently: ${got.files} files (manifest ${v.files}), tree checksum differs.`,
              );
          }
        } finally {
          for (const v of scratch.values()) await access.docker.removeVolume(v).catch(() => undefined);
        }
        this.d.repo.markVerified(a.id, new Date().toISOString(), null);
        return { bytes: a.bytes, archive: a.name };
      },
      (err) => {
        this.d.repo.markVerified(a.id, new Date().toISOString(), message(err));
        this.d.notify({
          event: 'restore_drill_failed',
          environment,
          title: `Restore drill of ${a.name} failed`,
          message: `Restoring ${a.name} into a throwaway volume failed its check: ${message(err)}`,
          details: { archive: a.name, ...(job ? { job: job.name } : {}) },
        });
      },
    );
  }

  private archiveRow(id: number) {
    const a = this.d.repo.archive(id);
    if (!a) throw new NotFoundError('archive', String(id));
    return a;
  }

  /** Reads an archive from its destination and hands its sections to sinks; answers its sha256 too. */
  private async unpack(
    archiveId: number,
    sealedPassphrase: string | null,
    passphrase: string | undefined,
    open: Parameters<typeof unpackSections>[2],
    watch: (stored: Readable) => Readable = (stored) => stored,
  ) {
    const a = this.archiveRow(archiveId);
    const manifest = JSON.parse(a.manifest) as BackupManifest;
    const secret = manifest.archive.encryption
      ? (passphrase ?? (sealedPassphrase ? this.d.box.open(sealedPassphrase) : null))
      : null;
    if (manifest.archive.encryption && !secret)
      throw new ValidationError('This archive is encrypted: give its passphrase.');
    const stored = await this.d.destinations.store(a.destination_id).get(a.name);
    const { tar, tally } = await openArchive(watch(stored), secret);
    const results = await unpackSections(tar, sectionOf, open);
    return { results, sha256: tally.sha256 };
  }

  /** Restores from an archive: one volume, a project (folder and volumes), or Berth into a new data folder. */
  async restore(body: RestoreBody): Promise<RestoreResult> {
    return (await this.startRestore(body))();
  }

  /** Checks a restore (restores.ts: the archive, what it holds, where it goes) and answers the restore itself, to follow. */
  async startRestore(body: RestoreBody): Promise<(onProgress?: OnRestoreProgress) => Promise<RestoreResult>> {
    const a = this.archiveRow(body.archive_id);
    const manifest = JSON.parse(a.manifest) as BackupManifest;
    const job = a.job_id === null ? null : this.d.repo.job(a.job_id);
    const kit = (onProgress?: OnRestoreProgress): RestoreKit => ({
      archive: a,
      manifest,
      progress: (phase) => onProgress?.({ phase, bytes: phase === 'starting' ? a.bytes : 0, total: a.bytes }),
      unpack: (open, phase) =>
        this.unpack(a.id, job?.passphrase_sealed ?? null, body.passphrase, open, (st) =>
          readWithProgress(st, phase, a.bytes, onProgress),
        ),
      recorded: (work) => this.recorded(a.job_id, 'restore', work),
    });
    if (body.kind === 'berth') return restoreBerth(kit, this.d.dataDir, body);
    const access = this.d.access(job?.environment ?? manifest.environment);
    if (body.kind === 'project') return restoreProject(kit, access, body);
    return restoreVolume(kit, access, body);
  }
}
