import type { ReactNode } from 'react';
import {
  IconChartLine,
  IconFolders,
  IconInfoCircle,
  IconList,
  IconListDetails,
  IconTerminal2,
} from '@tabler/icons-react';
import { appFilesApi, terminalApi } from '@berth/contract';
import { RouteTabs } from '../../../components/RouteTabs';

/** Back, Info, Processes, Logs, Terminal, Stats, Files: each tab is a route under /apps/{name}/; `children` is the tab's page. */
export function AppTabs({ name, children }: { name: string; children?: ReactNode }) {
  const base = `/apps/${encodeURIComponent(name)}`;
  return (
    <RouteTabs
      back="/apps"
      tabs={[
        { to: `${base}/info`, label: 'Info', icon: IconInfoCircle },
        { to: `${base}/top`, label: 'Processes', icon: IconListDetails },
        { to: `${base}/logs`, label: 'Logs', icon: IconList },
        { to: `${base}/terminal`, label: 'Terminal', icon: IconTerminal2, route: terminalApi.appExec },
        { to: `${base}/stats`, label: 'Stats', icon: IconChartLine },
        { to: `${base}/files`, label: 'Files', icon: IconFolders, route: appFilesApi.list },
      ]}
    >
      {children}
    </RouteTabs>
  );
}
