import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { auditApi } from '@berth/contract';
import { api, apiDownload } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

export interface AuditFilter {
  user?: string;
  action?: string;
  target?: string;
  /** How far back, in days. */
  days: number;
}

const query = (f: AuditFilter) => ({
  user: f.user?.trim() || undefined,
  action: f.action?.trim() || undefined,
  target: f.target?.trim() || undefined,
  since: new Date(Date.now() - f.days * 24 * 3600_000).toISOString(),
});

export const auditQuery = (f: AuditFilter) =>
  queryOptions({
    queryKey: queryKeys.audit.list(f),
    queryFn: ({ signal }) => api(auditApi.list, { signal, query: { ...query(f), limit: 1000 } }),
    placeholderData: keepPreviousData,
  });

export const exportAudit = (f: AuditFilter, format: 'csv' | 'json') =>
  apiDownload(auditApi.export, { query: { ...query(f), format, limit: 10000 } }, `berth-audit.${format}`);
