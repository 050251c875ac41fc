import { BatchService, type BatchDeps } from './batch';

/** One environment's batch actions, through its single-item services. */
export function createBatch(deps: BatchDeps): BatchService {
  return new BatchService(deps);
}
