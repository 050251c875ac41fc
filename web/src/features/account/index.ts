// The account feature's public face: what other features may import (lint holds it).
export { useLogout } from './api';
