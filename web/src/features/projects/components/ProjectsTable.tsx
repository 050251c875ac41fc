import { Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router-dom';
import type { Project } from '@berth/contract';
import { DataTable, type Column } from '../../../components/DataTable';
import { PageHeader } from '../../../components/PageHeader';
import { NEW_PROJECT } from '../model';
import { ProjectRowMenu } from './ProjectRowMenu';

const serviceCount = (p: Project) => Object.keys(p.services).length;

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
        ) : (
          !p.inUse && (
            <Badge size="sm" color="gray" variant="light">
              Unused
            </Badge>
          )
        )}
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
  { key: 'version', header: 'Version', sortable: true, sortValue: (p) => p.version ?? '', render: (p) => p.version ?? '-' },
  { key: 'services', header: 'Services', sortable: true, sortValue: serviceCount, searchValue: (p) => Object.keys(p.services).join(' '), render: serviceCount },
  { key: 'path', header: 'Path', sortable: true },
];

/** /projects: every compose project, with its row menu and the running action's subtitle. */
export function ProjectsTable({ projects, loading, busy }: { projects: Project[] | undefined; loading: boolean; busy: string[] }) {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="Projects" subtitle={busy[0]} />
      <DataTable
        label="Projects"
        data={projects}
        columns={columns}
        rowKey={(p) => p.name}
        searchPlaceholder="Search projects"
        loading={loading || busy.length > 0}
        emptyText="No Projects available."
        onRowClick={(p) => navigate(`/projects/${encodeURIComponent(p.name)}`)}
        rowMenu={(p) => <ProjectRowMenu project={p} />}
        toolbar={
          <Button component={Link} to={`/projects/${NEW_PROJECT}/edit`} leftSection={<IconPlus size={16} />}>
            Add
          </Button>
        }
      />
    </>
  );
}
