import type { Uses } from '../../context';
import { AuditRepo } from '../../db/audit-repo';
import { AuditService } from './audit';

/** The audit log (pruned to its retention from the start; close it to stop the pruning). */
export function createAudit(ctx: Uses<'db' | 'log', 'auditRetentionMs'>): AuditService {
  return new AuditService(new AuditRepo(ctx.db), ctx.config.auditRetentionMs, ctx.log);
}
