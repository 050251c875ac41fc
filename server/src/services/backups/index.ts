import type { Uses } from '../../context';
import { BackupsRepo } from '../../db/backups-repo';
import { deriveKey, open, seal } from '../../lib/secret-box';
import type { NotificationService } from '../notifications';
import { BackupsService } from './backups';
import { DestinationsService } from './destinations-service';
import type { VolumeAccess } from './volume-archive';

export type { BackupsService } from './backups';
export type { DestinationsService } from './destinations-service';

/**
 * Backups (issue 35): destinations (folder, SFTP, S3; secrets sealed under their own derived key),
 * jobs on a croner schedule with retention and restore drills, archives and restores. Volumes are
 * read and written through each environment's helper containers.
 */
export function createBackups(
  ctx: Uses<'db' | 'log', 'composeDir' | 'dataDir'>,
  signingKey: Uint8Array,
  notifications: NotificationService,
  access: (environment: string) => VolumeAccess & { composeDir: string },
): { backups: BackupsService; destinations: DestinationsService } {
  const key = deriveKey(signingKey, 'backups');
  const box = { seal: (plain: string) => seal(key, plain), open: (sealed: string) => open(key, sealed) };
  const repo = new BackupsRepo(ctx.db);
  const destinations = new DestinationsService(repo, box, ctx.config);
  const backups = new BackupsService({
    repo,
    destinations,
    box,
    access,
    notify: (n) => notifications.notify(n),
    log: ctx.log,
    dataDir: ctx.config.dataDir,
  });
  return { backups, destinations };
}
