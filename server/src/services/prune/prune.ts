import type { PrunePreview, PruneResource, PruneResult } from '@berth/contract';
import type { Engine } from '../../docker/engine';
import { prune } from './engine-prune';
import { prunePreview } from './preview';

export class PruneService {
  constructor(private readonly docker: Engine) {}

  /** Removes unused things of one kind; see the contract for what "unused" means for each. */
  run(resource: PruneResource, label?: string): Promise<PruneResult> {
    return prune(this.docker, resource, label ?? null);
  }

  /** What `run` would remove now and the space it would free; changes nothing. */
  preview(resource: PruneResource, label?: string): Promise<PrunePreview> {
    return prunePreview(this.docker, resource, label ?? null);
  }
}
