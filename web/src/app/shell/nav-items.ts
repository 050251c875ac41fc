import { IconActivity, IconApps, IconBook, IconBox, IconBrandGithub, IconDatabase, IconHome, IconLayersLinked, IconNetwork, IconSettings, IconStack2, IconTemplate } from '@tabler/icons-react';

export interface NavItem {
  to: string;
  label: string;
  icon: typeof IconHome;
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
];

export const SETTINGS_ITEM: NavItem = { to: '/settings/info', label: 'Settings', icon: IconSettings };

export const EXTERNAL_ITEMS = [
  { href: `${PROJECT_URL}#readme`, label: 'Docs', icon: IconBook },
  { href: PROJECT_URL, label: 'Source', icon: IconBrandGithub },
];

export const ResourcesIcon = IconLayersLinked;

/** '/' is active only on itself; other items also on their sub-pages. */
export function isActive(pathname: string, to: string): boolean {
  if (to === '/') return pathname === '/';
  const base = to.replace(/\/info$/, '');
  return pathname === base || pathname.startsWith(`${base}/`);
}
