import type { ReactNode } from 'react';
import { Tabs } from '@mantine/core';
import { IconArrowLeft, type Icon } from '@tabler/icons-react';
import { useLocation, useNavigate } from 'react-router-dom';
import { canCall, useSession, type RouteAccess } from '../lib/session';

export interface RouteTab {
  /** The route the tab opens, e.g. '/user/info'. */
  to: string;
  label: string;
  icon?: Icon;
  /** The contract route the tab's page is for: a role that may not call it does not see the tab. */
  route?: RouteAccess;
}

export interface RouteTabsProps {
  tabs: readonly RouteTab[];
  /** Adds a leading 'Back' tab going there. */
  back?: string;
  /** The routed page: shown in the current tab's panel. */
  children?: ReactNode;
}

/**
 * Tabs where each tab is a route (user area, settings, app area); the strip uses the theme's tabs colour.
 * Tabs a role may not use are left out. Every tab has its panel (each tab's `aria-controls` names a real element); the current tab's holds the page.
 */
export function RouteTabs({ tabs: allTabs, back, children }: RouteTabsProps) {
  const { pathname } = useLocation();
  const { role } = useSession();
  // A hidden tab's page, opened directly, still shows (outside the strip) and says why it is not allowed.
  const tabs = allTabs.filter((t) => !t.route || canCall(role, t.route));
  const navigate = useNavigate();
  const current = tabs.find((t) => pathname === t.to || pathname.startsWith(`${t.to}/`))?.to ?? null;
  const values = [...(back !== undefined ? [back] : []), ...tabs.map((t) => t.to)];
  return (
    <Tabs value={current} onChange={(v) => v && navigate(v)} styles={{ list: { background: 'var(--berth-tabs)' } }}>
      <Tabs.List mb="md">
        {back !== undefined && (
          <Tabs.Tab value={back} leftSection={<IconArrowLeft size={16} />}>
            Back
          </Tabs.Tab>
        )}
        {tabs.map(({ to, label, icon: TabIcon }) => (
          <Tabs.Tab key={to} value={to} leftSection={TabIcon ? <TabIcon size={16} /> : undefined}>
            {label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {values.map((v) => (
        <Tabs.Panel key={v} value={v}>
          {v === current && children}
        </Tabs.Panel>
      ))}
      {current === null && children}
    </Tabs>
  );
}
