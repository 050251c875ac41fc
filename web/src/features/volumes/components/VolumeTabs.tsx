import type { ReactNode } from 'react';
import { IconFolders, IconInfoCircle } from '@tabler/icons-react';
import { volumeFilesApi } from '@berth/contract';
import { RouteTabs } from '../../../components/RouteTabs';

/** Back, Info, Files: each tab is a route under /resources/volumes/{name}/; `children` is the tab's page. */
export function VolumeTabs({ name, children }: { name: string; children?: ReactNode }) {
  const base = `/resources/volumes/${encodeURIComponent(name)}`;
  return (
    <RouteTabs
      back="/resources/volumes"
      tabs={[
        { to: `${base}/info`, label: 'Info', icon: IconInfoCircle },
        { to: `${base}/files`, label: 'Files', icon: IconFolders, route: volumeFilesApi.list },
      ]}
    >
      {children}
    </RouteTabs>
  );
}
