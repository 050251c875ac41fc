import {
  IconActivity,
  IconArchive,
  IconApi,
  IconApps,
  IconBook,
  IconBox,
  IconBrandGithub,
  IconDatabase,
  IconFileSettings,
  IconHome,
  IconKey,
  IconLayersLinked,
  IconNetwork,
  IconServer2,
  IconSettings,
  IconStack2,
  IconStack3,
  IconTemplate,
  IconTopologyStar3,
  IconVectorTriangle,
} from '@tabler/icons-react';
import { backupsApi } from '@berth/contract';
import { canCall, useSession, type RouteAccess } from '../../lib/session';

export interface NavItem {
  to: string;
  label: string;
  icon: typeof IconHome;
  /** Shown only to a role that may call this route. */
  route?: RouteAccess;
}

export const PROJECT_URL = 'https://github.com/berth-console/berth';

export const MAIN_ITEMS: NavItem[] = [
  { to: '/', label: 'Dashboard', icon: IconHome },
  { to: '/apps', label: 'Applications', icon: IconApps },
  { to: '/templates', label: 'Templates', icon: IconTemplate },
  { to: '/projects', label: 'Projects', icon: IconStack2 },
  { to: '/events', label: 'Events', icon: IconActivity },
];

export const RESOURCE_ITEMS: NavItem[] = [
  { to: '/resources/images', label: 'Images', icon: IconBox },
  { to: '/resources/volumes', label: 'Volumes', icon: IconDatabase },
  { to: '/resources/networks', label: 'Networks', icon: IconNetwork },
  { to: '/backups', label: 'Backups', icon: IconArchive, route: backupsApi.jobs },
];

/** Shown only when the selected environment's engine is a swarm manager. */
export const SWARM_ITEMS: NavItem[] = [
  { to: '/swarm', label: 'Overview', icon: IconTopologyStar3 },
  { to: '/swarm/nodes', label: 'Nodes', icon: IconServer2 },
  { to: '/swarm/services', label: 'Services', icon: IconVectorTriangle },
  { to: '/swarm/stacks', label: 'Stacks', icon: IconStack3 },
  { to: '/swarm/configs', label: 'Configs', icon: IconFileSettings },
  { to: '/swarm/secrets', label: 'Secrets', icon: IconKey },
];
export const SwarmIcon = IconTopologyStar3;

export const SETTINGS_ITEM: NavItem = { to: '/settings/info', label: 'Settings', icon: IconSettings };

export const EXTERNAL_ITEMS = [
  { href: `${PROJECT_URL}#readme`, label: 'Docs', icon: IconBook },
  { href: PROJECT_URL, label: 'Source', icon: IconBrandGithub },
  // Berth's own interactive reference of its API (served behind sign-in).
  { href: '/api/docs', label: 'API reference', icon: IconApi },
];

export const ResourcesIcon = IconLayersLinked;

/** '/' and the swarm overview are active only on themselves; other items also on their sub-pages. */
export function isActive(pathname: string, to: string): boolean {
  if (to === '/' || to === '/swarm') return pathname === to;
  const base = to.replace(/\/info$/, '');
  return pathname === base || pathname.startsWith(`${base}/`);
}

/** The items the signed-in role may open (an item naming a route it may not call is left out). */
export function useVisibleItems(items: NavItem[]): NavItem[] {
  const { role } = useSession();
  return items.filter((i) => !i.route || canCall(role, i.route));
}
