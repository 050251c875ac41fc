// The terminal feature's public face: what other features may import (lint holds it).
export { TerminalPanel } from './components/TerminalPanel';
export type { TerminalTarget } from './api/terminal';
