// The apps feature's public face: what other features may import (lint holds it).
export { appQuery } from './api/queries';
export { chartColumns, historyQuery, mergeHistory, RANGE_SECONDS } from './api/history';
export { failedReadText } from './model';
