// The templates feature's public face: what other features may import (lint holds it).
export { templateItemQuery } from './api';
