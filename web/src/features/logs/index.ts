// The logs feature's public face: what other features may import (lint holds it).
export { LogPanel, type LogQuery } from './components/LogPanel';
