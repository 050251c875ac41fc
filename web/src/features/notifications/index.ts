export { ChannelsCard } from './components/ChannelsCard';
export { DeliveriesCard } from './components/DeliveriesCard';
export { RulesCard } from './components/RulesCard';
