import { Tabs } from '@mantine/core';
import { IconArrowLeft, IconChartLine, IconInfoCircle, IconList, IconListDetails } from '@tabler/icons-react';
import { useLocation, useNavigate } from 'react-router-dom';

const TABS = [
  { value: 'info', label: 'Info', icon: IconInfoCircle },
  { value: 'top', label: 'Processes', icon: IconListDetails },
  { value: 'logs', label: 'Logs', icon: IconList },
  { value: 'stats', label: 'Stats', icon: IconChartLine },
];

/** Back, Info, Processes, Logs, Stats: each tab is a route under /apps/{name}/. */
export function AppTabs({ name }: { name: string }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = pathname.split('/').pop() ?? 'info';
  const base = `/apps/${encodeURIComponent(name)}`;
  return (
    <Tabs value={current} onChange={(v) => v && navigate(v === 'back' ? '/apps' : `${base}/${v}`)} mb="md" styles={{ list: { background: 'var(--berth-tabs)' } }}>
      <Tabs.List>
        <Tabs.Tab value="back" leftSection={<IconArrowLeft size={16} />}>
          Back
        </Tabs.Tab>
        {TABS.map(({ value, label, icon: Icon }) => (
          <Tabs.Tab key={value} value={value} leftSection={<Icon size={16} />}>
            {label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
