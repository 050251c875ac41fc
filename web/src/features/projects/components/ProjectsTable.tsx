import { Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { IconGitBranch, IconPlus } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router-dom';
import { gitApi, projectApi, type Project, type ProjectAction } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { BatchBar, useBatchSelection, type BatchAction } from '../../../components/BatchBar';
import { DataTable, type Column } from '../../../components/DataTable';
import { PageHeader } from '../../../components/PageHeader';
import { useProjectBatch } from '../api/mutations';
import { NEW_PROJECT } from '../model';
import { ProjectRowMenu } from './ProjectRowMenu';

const serviceCount = (p: Project) => Object.keys(p.services).length;

const STATE_COLORS: Record<Project['status']['state'], string> = {
  running: 'green',
  partial: 'yellow',
  stopped: 'gray',
  'not created': 'gray',
};
const STATE_ORDER = ['running', 'partial', 'stopped', 'not created'];

/** '2 of 3 services running' (a scaled service counts once). */
export const serviceCountText = (s: Project['status']) =>
  `${s.runningServices} of ${s.services} service${s.services === 1 ? '' : 's'} running`;
const projectName = (p: Project) => p.name;

/** What the selection bar offers for projects (the whole-project compose actions). */
const BATCH_ACTIONS: readonly BatchAction<Project, ProjectAction>[] = [
  { key: 'up', label: 'Up', done: 'brought up', color: 'green' },
  { key: 'start', label: 'Start', done: 'started', color: 'green' },
  { key: 'stop', label: 'Stop', done: 'stopped', color: 'orange' },
  { key: 'restart', label: 'Restart', done: 'restarted' },
  { key: 'pull', label: 'Pull', done: 'pulled' },
  { key: 'down', label: 'Down', done: 'taken down', color: 'orange' },
  { key: 'delete', label: 'Delete', done: 'deleted', color: 'red', danger: true },
];

const columns: Column<Project>[] = [
  {
    key: 'name',
    header: 'Name',
    sortable: true,
    render: (p) => (
      <Group gap="xs" wrap="nowrap">
        <Text size="sm" fw={500}>
          {p.name}
        </Text>
        {p.error ? (
          <Tooltip label={p.error} multiline w={360} withinPortal>
            <Badge size="sm" color="red" variant="light">
              Error
            </Badge>
          </Tooltip>
        ) : null}
        {p.external && (
          <Tooltip label="Started outside Berth; open it to adopt it into Berth's folder" withinPortal>
            <Badge size="sm" color="grape" variant="light">
              External
            </Badge>
          </Tooltip>
        )}
      </Group>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    sortable: true,
    sortValue: (p) => STATE_ORDER.indexOf(p.status.state),
    searchValue: (p) => p.status.state,
    render: (p) => (
      <Group gap="xs" wrap="nowrap">
        <Badge
          size="sm"
          variant={p.status.state === 'not created' ? 'outline' : 'light'}
          color={STATE_COLORS[p.status.state]}
        >
          {p.status.state}
        </Badge>
        {p.status.state !== 'not created' && (
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {serviceCountText(p.status)}
          </Text>
        )}
      </Group>
    ),
  },
  {
    key: 'version',
    header: 'Version',
    sortable: true,
    sortValue: (p) => p.version ?? '',
    render: (p) => p.version ?? '-',
  },
  {
    key: 'services',
    header: 'Services',
    sortable: true,
    sortValue: serviceCount,
    searchValue: (p) => Object.keys(p.services).join(' '),
    render: serviceCount,
  },
  { key: 'path', header: 'Path', sortable: true },
];

/** /projects: every compose project, with its row menu and the running action's subtitle. */
export function ProjectsTable({
  projects,
  loading,
  busy,
}: {
  projects: Project[] | undefined;
  loading: boolean;
  busy: string[];
}) {
  const navigate = useNavigate();
  const batch = useProjectBatch();
  const { selection, selectedRows } = useBatchSelection(projects, projectName, projectName, projectApi.batch);
  return (
    <>
      <PageHeader title="Projects" subtitle={busy[0]} />
      <BatchBar
        noun={['project', 'projects']}
        selectedRows={selectedRows}
        selection={selection}
        rowKey={projectName}
        itemOf={projectName}
        labelOf={projectName}
        actions={BATCH_ACTIONS}
        run={async (action, names) => (await batch.mutateAsync({ action, names })).results}
      />
      <DataTable
        label="Projects"
        data={projects}
        columns={columns}
        rowKey={projectName}
        selection={selection}
        searchPlaceholder="Search projects"
        loading={loading || busy.length > 0}
        emptyText="No Projects available."
        onRowClick={(p) => navigate(`/projects/${encodeURIComponent(p.name)}`)}
        rowMenu={(p) => <ProjectRowMenu project={p} />}
        toolbar={
          <Group gap="xs">
            <Can route={projectApi.create}>
              <Button component={Link} to={`/projects/${NEW_PROJECT}/edit`} leftSection={<IconPlus size={16} />}>
                Add
              </Button>
            </Can>
            <Can route={gitApi.fromGit}>
              <Button
                component={Link}
                to={`/projects/${NEW_PROJECT}/from-git`}
                variant="default"
                leftSection={<IconGitBranch size={16} />}
              >
                From git
              </Button>
            </Can>
          </Group>
        }
      />
    </>
  );
}
