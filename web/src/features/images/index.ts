// The images feature's public face: what other features may import (lint holds it).
export { imageQuery } from './api/queries';
export { PullImageDialog } from './components/PullImageDialog';
