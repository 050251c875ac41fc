// The users feature's public face (Settings > Users).
export { UsersCard } from './components/UsersCard';
