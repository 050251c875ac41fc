// The apps feature's public face: what other features may import (lint holds it).
export { appKeys } from './api/keys';
export { appQuery } from './api/queries';
export { LogView } from './components/LogView';
export { foldLogs, toLines, type LogBuffer } from './api/live-model';
