// The account feature's public face: what other features may import (lint holds it).
export { useLogout, authStatusQuery } from './api';
export { SessionsCard } from './components/SessionsCard';
export { TotpCard } from './components/TotpCard';
export { SsoLinkCard } from './components/SsoLinkCard';
export { TotpLoginForm } from './components/TotpLoginForm';
