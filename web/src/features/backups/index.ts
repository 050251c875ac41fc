// The backups feature's public face: what other features and the pages may import (lint holds it).
export { BackupsPanel } from './components/BackupsPanel';
export { TargetBackupCard } from './components/TargetBackupCard';
