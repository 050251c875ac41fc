export { FilesBrowser } from './FilesBrowser';
export type { FilesTarget } from './files-api';
