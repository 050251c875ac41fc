// The auto-update feature's public face: what other features and pages may import (lint holds it).
export { AppAutoUpdatePanel } from './components/AppAutoUpdatePanel';
export { AutoUpdatePolicyForm } from './components/AutoUpdatePolicyForm';
export { AutoUpdateRuns } from './components/AutoUpdateRuns';
export { ProjectAutoUpdatePanel } from './components/ProjectAutoUpdatePanel';
