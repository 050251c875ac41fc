import { Tabs } from '@mantine/core';
import { IconArrowLeft, type Icon } from '@tabler/icons-react';
import { useLocation, useNavigate } from 'react-router-dom';

export interface RouteTab {
  /** The route the tab opens, e.g. '/user/info'. */
  to: string;
  label: string;
  icon?: Icon;
}

export interface RouteTabsProps {
  tabs: readonly RouteTab[];
  /** Adds a leading 'Back' tab going there. */
  back?: string;
}

/** Tabs where each tab is a route (user area, settings, app area); the strip uses the theme's tabs colour. */
export function RouteTabs({ tabs, back }: RouteTabsProps) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = tabs.find((t) => pathname === t.to || pathname.startsWith(`${t.to}/`))?.to ?? null;
  return (
    <Tabs value={current} onChange={(v) => v && navigate(v)} mb="md" styles={{ list: { background: 'var(--berth-tabs)' } }}>
      <Tabs.List>
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
    </Tabs>
  );
}
