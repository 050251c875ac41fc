// The registries feature's public face: what other features and the pages may import (lint holds it).
export { registriesQuery } from './api';
export { RegistriesPanel } from './components/RegistriesPanel';
export { RegistryBrowser } from './components/RegistryBrowser';
export { RegistryHint } from './components/RegistryHint';
