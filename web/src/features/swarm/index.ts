// The swarm feature's public face: what the shell may import (lint holds it).
export { useIsSwarmManager, useStackFromTemplate } from './api';
