import { useMemo, useState } from 'react';
import { Anchor, Box, Button, Group, Indicator, Select, Text, Tooltip } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconCloudDownload, IconPlus, IconRefresh } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router-dom';
import { appsApi, deployApi, HEALTH_STATUSES, type App, type HealthStatus } from '@berth/contract';
import { BatchBar, useBatchSelection } from '../../../components/BatchBar';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDate } from '../../../lib/format';
import { useCan } from '../../../lib/session';
import { Can } from '../../../components/RoleGate';
import { useAppBatch } from '../api/mutations';
import { portChips, projectOf } from '../model';
import { BATCH_ACTIONS } from './actions';
import { AppRowMenu } from './AppRowMenu';
import { HealthBadge } from '../../../components/HealthBadge';
import { AppStatusBadge } from './AppStatusBadge';
import { failedReadText } from '../model';
import { ColumnsMenu } from './ColumnsMenu';
import { PortChips } from './PortChips';
import { ImageWithNewer } from './NewerVersion';

/** The name is a link, so the keyboard opens an app as it opens a project (the row click is for the mouse). */
function AppName({ app }: { app: App }) {
  const name = (
    <Anchor
      component={Link}
      to={`/apps/${encodeURIComponent(app.name)}/info`}
      size="sm"
      fw={500}
      onClick={(e) => e.stopPropagation()}
    >
      {app.name}
    </Anchor>
  );
  if (!app.isUpdatable) return name;
  return (
    <Tooltip label="Update Available">
      <Indicator color="orange" size={8} position="middle-end" offset={-10} processing data-testid="update-available">
        {name}
      </Indicator>
    </Tooltip>
  );
}

const appId = (a: App) => a.Id;
const HEALTH_FILTER = [
  { value: 'all', label: 'Any health' },
  ...HEALTH_STATUSES.map((h) => ({ value: h, label: h === 'none' ? 'No healthcheck' : h })),
];
const appName = (a: App) => a.name;

const COLUMNS: Column<App>[] = [
  { key: 'name', header: 'Name', sortable: true, render: (a) => <AppName app={a} />, sortValue: (a) => a.name },
  {
    key: 'project',
    header: 'Project',
    sortable: true,
    sortValue: (a) => projectOf(a) ?? '',
    render: (a) => {
      const project = projectOf(a);
      if (!project) return '-';
      return (
        <Anchor
          component={Link}
          to={`/projects/${encodeURIComponent(project)}`}
          size="sm"
          onClick={(e) => e.stopPropagation()}
        >
          {project}
        </Anchor>
      );
    },
  },
  {
    key: 'status',
    header: 'Status',
    sortable: true,
    sortValue: (a) => a.State.Status,
    render: (a) => <AppStatusBadge state={a.State} />,
  },
  {
    key: 'health',
    header: 'Health',
    sortable: true,
    sortValue: (a) => a.health,
    render: (a) => <HealthBadge health={a.health} showNone />,
  },
  {
    key: 'image',
    header: 'Image',
    sortable: true,
    sortValue: (a) => a.Config.Image,
    render: (a) => <ImageWithNewer app={a} />,
  },
  {
    key: 'ports',
    header: 'Ports',
    render: (a) => <PortChips ports={a.ports} labels={a.Config.Labels} />,
    searchValue: (a) =>
      portChips(a.ports, a.Config.Labels, '')
        .map((c) => `${c.hostPort}:${c.containerPort}/${c.proto} ${c.label ?? ''}`)
        .join(' '),
  },
  {
    key: 'created',
    header: 'Created At',
    sortable: true,
    sortValue: (a) => a.Created,
    render: (a) => (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDate(a.Created)}
      </Text>
    ),
    searchValue: (a) => formatDate(a.Created),
  },
];

export interface AppsTableProps {
  apps: App[] | undefined;
  loading: boolean;
  /** 0-100 while an update check runs. */
  progress?: number;
  busy: string[];
  onRefresh: () => void;
  onCheckUpdates: () => void;
  checking: boolean;
  /** Why the list could not be read: then the table says so instead of calling the list empty. */
  error?: unknown;
}

/** The Applications list: toolbar (search, add, Updates, Refresh, Columns), the table and its row menus. */
export function AppsTable({
  apps,
  loading,
  progress,
  busy,
  onRefresh,
  onCheckUpdates,
  checking,
  error,
}: AppsTableProps) {
  const navigate = useNavigate();
  const [health, setHealth] = useState<HealthStatus | 'all'>('all');
  const shown = useMemo(() => (health === 'all' ? apps : apps?.filter((a) => a.health === health)), [apps, health]);
  const [hidden, setHidden] = useLocalStorage<string[]>({ key: 'berth.apps.hiddenColumns', defaultValue: [] });
  const { selection, selectedRows } = useBatchSelection(shown, appId, appName, appsApi.batch);
  const canAct = useCan(appsApi.action);
  const batch = useAppBatch();
  const toolbar = (
    <>
      <Select
        aria-label="Health"
        data={HEALTH_FILTER}
        value={health}
        onChange={(v) => setHealth((v as HealthStatus | 'all' | null) ?? 'all')}
        allowDeselect={false}
        w={160}
      />
      <Can route={deployApi.deploy}>
        <Button component={Link} to="/apps/deploy" leftSection={<IconPlus size={16} />}>
          Add
        </Button>
      </Can>
      <Button
        variant="default"
        leftSection={<IconCloudDownload size={16} />}
        onClick={onCheckUpdates}
        disabled={checking || !apps?.length}
      >
        {checking ? `Checking ${progress ?? 0}%` : 'Updates'}
      </Button>
      <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={onRefresh}>
        Refresh
      </Button>
      <ColumnsMenu columns={COLUMNS} hidden={hidden} onChange={setHidden} />
    </>
  );
  return (
    <Box>
      {/* Only while something runs: an empty reserved line read as a gap above the toolbar. */}
      {busy.length > 0 && (
        <Box mb="xs">
          {busy.map((text) => (
            <Text key={text} size="sm" c="dimmed" role="status">
              {text}
            </Text>
          ))}
        </Box>
      )}
      <BatchBar
        noun={['app', 'apps']}
        selectedRows={selectedRows}
        selection={selection}
        rowKey={appId}
        itemOf={appName}
        labelOf={appName}
        actions={BATCH_ACTIONS}
        run={async (action, names) => (await batch.mutateAsync({ action, names })).results}
      />
      <DataTable
        label="Applications"
        data={shown}
        columns={COLUMNS}
        rowKey={appId}
        selection={selection}
        hiddenColumns={hidden}
        searchPlaceholder="Search"
        defaultSort={{ key: 'name', direction: 'asc' }}
        onRowClick={(a) => navigate(`/apps/${encodeURIComponent(a.name)}/info`)}
        rowMenu={canAct ? (a) => <AppRowMenu app={a} /> : undefined}
        loading={loading || progress !== undefined || busy.length > 0}
        progress={progress}
        toolbar={<Group gap="xs">{toolbar}</Group>}
        emptyText={error ? failedReadText(error) : 'No applications yet.'}
      />
    </Box>
  );
}
