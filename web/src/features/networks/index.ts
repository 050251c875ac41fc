// The networks feature's public face: what other features may import (lint holds it).
export { networksQuery } from './api';
