// The kept last lines of an app's earlier containers: the Logs tab and the Events page show them.
export { EarlierContainers } from './components/EarlierContainers';
