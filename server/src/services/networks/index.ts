import type { Engine } from '../../docker/engine';
import { NetworksService } from './networks';

/** One environment's networks. */
export function createNetworks(docker: Engine): NetworksService {
  return new NetworksService(docker);
}
