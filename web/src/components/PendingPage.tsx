import { useMatches } from 'react-router-dom';
import { PageHeader } from './PageHeader';
import { routeName } from '../lib/route-name';

/** A routed page whose feature is not built yet: its name and nothing invented. */
export function PendingPage() {
  const name = routeName(useMatches());
  return <PageHeader title={name} />;
}
