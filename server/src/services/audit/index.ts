import type { Uses } from '../../context';
import { AuditRepo } from '../../db/audit-repo';
import type { StorageStatus } from '../storage/storage-status';
import { AuditService } from './audit';

/** The audit log (pruned to its retention and AUDIT_MAX_ROWS from the start; close it to stop the pruning). */
export function createAudit(
  ctx: Uses<'db' | 'log', 'auditRetentionMs' | 'auditMaxRows'>,
  storage: StorageStatus,
): AuditService {
  return new AuditService(
    new AuditRepo(ctx.db),
    { retentionMs: ctx.config.auditRetentionMs, maxRows: ctx.config.auditMaxRows },
    ctx.log,
    storage,
  );
}
