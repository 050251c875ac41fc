import { SwarmGate } from '../../features/swarm/components/SwarmGate';

/** /swarm/*: the swarm pages, or what to do when the engine is no swarm manager. */
export default function SwarmGatePage() {
  return <SwarmGate />;
}
