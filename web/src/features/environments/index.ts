// The environments feature's public face: what other features and the shell may import (lint holds it).
export { EnvironmentSwitcher, switchEnvironment } from './components/EnvironmentSwitcher';
export { environmentsQuery, environmentAppsQuery, useIsSwarmManager } from './api';
export { EnvironmentsPanel } from './components/EnvironmentsPanel';
export { AllEnvironments } from './components/AllEnvironments';
export { PolicyPanel } from './components/PolicyPanel';
