import { Anchor, Menu, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { templateApi, type Template } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { AddAction } from '../../../components/AddAction';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDate } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { RowMenu } from '../../../components/Menus';
import { templatesQuery, useDeleteTemplate, useRefreshTemplate } from '../api';
import { reportTemplateWrite } from './skipped-report';

const columns: Column<Template>[] = [
  { key: 'title', header: 'Title', sortable: true },
  { key: 'created_at', header: 'Created At', sortable: true, render: (t) => formatDate(t.created_at) },
  { key: 'updated_at', header: 'Updated At', sortable: true, render: (t) => formatDate(t.updated_at) },
];

function EmptyState() {
  return (
    <Stack gap={4} align="center">
      <Text>No templates available</Text>
      <Can route={templateApi.create}>
        <Anchor component={Link} to="/templates/new" size="sm">
          Add a template
        </Anchor>
      </Can>
    </Stack>
  );
}

/** Template sources: search, paging, open, refresh from the source and delete. */
export function TemplatesTable() {
  const navigate = useNavigate();
  const templates = useQuery(templatesQuery());
  const refresh = useRefreshTemplate();
  const remove = useDeleteTemplate();
  const [deleting, setDeleting] = useState<Template | null>(null);

  const update = (t: Template) =>
    refresh.mutate(t.id, { onSuccess: (result) => reportTemplateWrite(result, 'updated') });

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: (t) => notifySuccess(`Template '${t.title}' deleted.`),
      onSettled: () => setDeleting(null),
    });
  };

  const rowMenu = (t: Template) => (
    <RowMenu
      name={t.title}
      onView={() => navigate(`/templates/${t.id}`)}
      onDelete={() => setDeleting(t)}
      deleteRoute={templateApi.remove}
      loading={refresh.isPending && refresh.variables === t.id}
    >
      <Can route={templateApi.refresh}>
        <Menu.Item leftSection={<IconRefresh size={16} />} onClick={() => update(t)}>
          Update
        </Menu.Item>
      </Can>
    </RowMenu>
  );

  return (
    <>
      {templates.error && <Text c="red">{templates.error.message}</Text>}
      <DataTable
        label="Templates"
        data={templates.data}
        columns={columns}
        rowKey={(t) => String(t.id)}
        searchPlaceholder="Search templates"
        loading={templates.isLoading || refresh.isPending}
        onRowClick={(t) => navigate(`/templates/${t.id}`)}
        rowMenu={rowMenu}
        emptyText={<EmptyState />}
        toolbar={<AddAction label="Add Template" route={templateApi.create} to="/templates/new" />}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete the template?"
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        {`The template '${deleting?.title ?? ''}' and its items will be permanently deleted. This action cannot be revoked.`}
      </ConfirmDialog>
    </>
  );
}
