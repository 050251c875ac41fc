export { AutoHealDefaultCard, AutoHealPanel, ProjectAutoHeal } from './components/AutoHealPanel';
