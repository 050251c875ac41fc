// Filled by the feature that owns this screen; until then it shows the route name only.
export { PendingPage as default } from '../../components/PendingPage';
