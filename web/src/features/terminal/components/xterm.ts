// Loaded with import() only when a terminal opens, so xterm.js and its styles stay out of the first load.
import '@xterm/xterm/css/xterm.css';

export { Terminal } from '@xterm/xterm';
export { FitAddon } from '@xterm/addon-fit';
