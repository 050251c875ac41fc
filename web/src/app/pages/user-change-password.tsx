export { PendingPage as default } from '../../components/PendingPage';
