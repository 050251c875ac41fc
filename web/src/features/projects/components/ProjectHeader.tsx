import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { projectApi, type ProjectAction, type ProjectPlan } from '@berth/contract';
import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconDownload, IconEdit, IconTrash } from '@tabler/icons-react';
import { useLocation, useNavigate } from 'react-router-dom';
import { PageHeader } from '../../../components/PageHeader';
import { Can } from '../../../components/RoleGate';
import { useProjectAction, useProjectBusyTexts, useProjectSupportBundle } from '../api/mutations';
import { ACTION_LABELS, CONTROL_ACTIONS } from '../model';
import { projectPlanQuery } from '../api/queries';
import { AdoptButton } from './AdoptButton';
import { DeleteProjectDialog } from './DeleteProjectDialog';
import { UpPlanDialog, planNeedsConfirmation } from './UpPlanDialog';
import type { DeployOnOpen } from './ProjectEditForm';
import { useEnvironment } from '../../../lib/environment';

/** The project page's header: name, running action, the whole-project actions, Edit, Delete, support bundle. */
export function ProjectHeader({ name, external = false }: { name: string; external?: boolean }) {
  const navigate = useNavigate();
  const action = useProjectAction();
  const bundle = useProjectSupportBundle();
  const busy = useProjectBusyTexts(name);
  const [confirming, setConfirming] = useState(false);
  const queryClient = useQueryClient();
  const env = useEnvironment();
  const [plan, setPlan] = useState<ProjectPlan | null>(null);
  const run = (a: ProjectAction) => action.mutate({ name, action: a });
  // `up` is planned first; the plan is shown when it holds something to confirm. A plan that cannot be made does not stop up: up reports its own error.
  const up = () =>
    queryClient.fetchQuery(projectPlanQuery(env, name)).then(
      (p) => (planNeedsConfirmation(p) ? setPlan(p) : run('up')),
      () => run('up'),
    );
  // "Save and deploy" lands here asking for an up: once, and the history entry forgets it (a reload does not redeploy).
  const location = useLocation();
  const deployAsked = useRef(false);
  useEffect(() => {
    if (!(location.state as DeployOnOpen | null)?.deploy || deployAsked.current) return;
    deployAsked.current = true;
    void navigate(location.pathname, { replace: true, state: null });
    void up();
  });
  return (
    <>
      <PageHeader
        title={name}
        subtitle={busy[0]}
        actions={
          <>
            <Can route={projectApi.action}>
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <Button variant="light" rightSection={<IconChevronDown size={16} />} loading={busy.length > 0}>
                    Actions
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  {CONTROL_ACTIONS.map((a) => (
                    <Menu.Item key={a} onClick={() => (a === 'up' ? void up() : run(a))}>
                      {ACTION_LABELS[a]}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
            </Can>
            {external ? (
              <Can route={projectApi.adopt}>
                <AdoptButton name={name} />
              </Can>
            ) : (
              <Can route={projectApi.edit}>
                <Button
                  variant="default"
                  leftSection={<IconEdit size={16} />}
                  onClick={() => navigate(`/projects/${encodeURIComponent(name)}/edit`)}
                >
                  Edit
                </Button>
              </Can>
            )}
            <Can route={projectApi.support}>
              <Button
                variant="default"
                leftSection={<IconDownload size={16} />}
                loading={bundle.isPending}
                onClick={() => bundle.mutate(name)}
              >
                Download Support Bundle
              </Button>
            </Can>
            <Can route={projectApi.action}>
              <Button
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} />}
                onClick={() => setConfirming(true)}
              >
                Delete
              </Button>
            </Can>
          </>
        }
      />
      <UpPlanDialog
        name={name}
        plan={plan}
        onCancel={() => setPlan(null)}
        onConfirm={() => {
          setPlan(null);
          run('up');
        }}
      />
      <DeleteProjectDialog
        name={name}
        opened={confirming}
        loading={action.isPending && action.variables?.action === 'delete'}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          action.mutate(
            { name, action: 'delete' },
            {
              onSuccess: () => navigate('/projects'),
              onSettled: () => setConfirming(false),
            },
          )
        }
      />
    </>
  );
}
