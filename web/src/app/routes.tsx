import { Center, Loader } from '@mantine/core';
import { Navigate, Outlet, type RouteObject } from 'react-router-dom';
import {
  appFilesApi,
  backupsApi,
  deployApi,
  gitApi,
  networkApi,
  projectApi,
  registryApi,
  swarmApi,
  templateApi,
  terminalApi,
  volumeFilesApi,
} from '@berth/contract';
import { RoleGate } from '../components/RoleGate';
import { importOrReload } from '../lib/chunk-reload';
import type { RouteHandle } from '../lib/route-name';
import type { RouteAccess } from '../lib/session';
import { AppShellLayout } from './shell/AppShellLayout';
import { RouteError } from './shell/RouteError';

/**
 * Every route of the spec's route table. Each page is one file in ./pages exporting a default
 * component, loaded lazily; a feature replaces its page file without touching this table.
 */
type PageModule = { default: React.ComponentType };
const page = (load: () => Promise<PageModule>) => async () => ({ Component: (await importOrReload(load)()).default });
const named = (name: string): RouteHandle => ({ name });
/** A page for what only some roles may do (the contract route it leads to says which): others see why not. */
const gated = (route: RouteAccess, load: () => Promise<PageModule>) => async () => {
  const Page = (await importOrReload(load)()).default;
  return {
    Component: function GatedPage() {
      return (
        <RoleGate route={route}>
          <Page />
        </RoleGate>
      );
    },
  };
};

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppShellLayout />,
    errorElement: <RouteError />,
    // The first page loads lazily; without this the router warns on every start.
    hydrateFallbackElement: (
      <Center mih="100vh">
        <Loader aria-label="Loading page" />
      </Center>
    ),
    children: [
      { index: true, handle: named('Dashboard'), lazy: page(() => import('./pages/home')) },
      {
        path: 'templates',
        element: <Outlet />,
        children: [
          { index: true, handle: named('View Templates'), lazy: page(() => import('./pages/templates-list')) },
          {
            path: 'new',
            handle: named('New Template'),
            lazy: gated(templateApi.create, () => import('./pages/template-new')),
          },
          {
            path: ':templateId',
            handle: named('Template Details'),
            lazy: page(() => import('./pages/template-details')),
          },
        ],
      },
      {
        path: 'apps',
        element: <Outlet />,
        children: [
          { index: true, handle: named('View Applications'), lazy: page(() => import('./pages/apps-list')) },
          {
            path: 'deploy',
            handle: named('Add Application'),
            lazy: gated(deployApi.deploy, () => import('./pages/app-add')),
          },
          {
            path: 'deploy/:appId',
            handle: named('Deploy'),
            lazy: gated(deployApi.deploy, () => import('./pages/app-deploy')),
          },
          {
            path: 'edit/:appName',
            handle: named('Edit'),
            lazy: gated(deployApi.deploy, () => import('./pages/app-edit')),
          },
          {
            path: 'templates',
            handle: named('Deploy from Template'),
            lazy: gated(deployApi.deploy, () => import('./pages/apps-from-template')),
          },
          {
            path: ':appName',
            lazy: page(() => import('./pages/app-layout')),
            children: [
              { index: true, element: <Navigate to="info" replace /> },
              { path: 'info', handle: named('Info'), lazy: page(() => import('./pages/app-info')) },
              { path: 'top', handle: named('Processes'), lazy: page(() => import('./pages/app-processes')) },
              { path: 'logs', handle: named('Logs'), lazy: page(() => import('./pages/app-logs')) },
              {
                path: 'terminal',
                handle: named('Terminal'),
                lazy: gated(terminalApi.appExec, () => import('./pages/app-terminal')),
              },
              { path: 'stats', handle: named('Stats'), lazy: page(() => import('./pages/app-stats')) },
              {
                path: 'files',
                handle: named('Files'),
                lazy: gated(appFilesApi.list, () => import('./pages/app-files')),
              },
            ],
          },
        ],
      },
      {
        path: 'projects',
        element: <Outlet />,
        children: [
          { index: true, handle: named('View Projects'), lazy: page(() => import('./pages/projects-list')) },
          // A static segment outranks `:projectName`: '_' is the new project (the spec's marker).
          {
            path: '_/edit',
            handle: named('New project'),
            lazy: gated(projectApi.create, () => import('./pages/project-edit')),
          },
          {
            path: '_/from-git',
            handle: named('New project from git'),
            lazy: gated(gitApi.fromGit, () => import('./pages/project-from-git')),
          },
          {
            path: ':projectName/edit',
            handle: named('Edit Project'),
            lazy: gated(projectApi.edit, () => import('./pages/project-edit')),
          },
          {
            path: ':projectName',
            handle: named('Project Details'),
            lazy: page(() => import('./pages/project-details')),
          },
        ],
      },
      {
        path: 'user',
        lazy: page(() => import('./pages/user-layout')),
        children: [
          { index: true, element: <Navigate to="info" replace /> },
          { path: 'info', handle: named('User Info'), lazy: page(() => import('./pages/user-info')) },
          {
            path: 'changePassword',
            handle: named('Change Password'),
            lazy: page(() => import('./pages/user-change-password')),
          },
          { path: 'security', handle: named('Security'), lazy: page(() => import('./pages/user-security')) },
        ],
      },
      {
        path: 'settings',
        lazy: page(() => import('./pages/settings-layout')),
        children: [
          { index: true, element: <Navigate to="info" replace /> },
          { path: 'info', handle: named('Server Info'), lazy: page(() => import('./pages/settings-info')) },
          { path: 'theme', handle: named('Theme'), lazy: page(() => import('./pages/settings-theme')) },
          {
            path: 'templateVariables',
            handle: named('Template Variables'),
            lazy: page(() => import('./pages/settings-template-variables')),
          },
          {
            path: 'environments',
            handle: named('Environments'),
            lazy: page(() => import('./pages/settings-environments')),
          },
          {
            path: 'environments/:env/policy',
            handle: named('Policy'),
            lazy: page(() => import('./pages/settings-environment-policy')),
          },
          {
            path: 'registries',
            handle: named('Registries'),
            lazy: gated(registryApi.list, () => import('./pages/settings-registries')),
          },
          {
            path: 'registries/:registryId',
            handle: named('Registry'),
            lazy: gated(registryApi.repositories, () => import('./pages/registry-browser')),
          },
          { path: 'prune', handle: named('Prune'), lazy: page(() => import('./pages/settings-prune')) },
          { path: 'update', handle: named('Update'), lazy: page(() => import('./pages/settings-update')) },
          {
            path: 'auto-update',
            handle: named('Auto-update'),
            lazy: page(() => import('./pages/settings-auto-update')),
          },
          {
            path: 'notifications',
            handle: named('Notifications'),
            lazy: page(() => import('./pages/settings-notifications')),
          },
          { path: 'audit', handle: named('Audit Log'), lazy: page(() => import('./pages/settings-audit')) },
          { path: 'users', handle: named('Users'), lazy: page(() => import('./pages/settings-users')) },
          { path: 'git', handle: named('Git'), lazy: gated(gitApi.credentials, () => import('./pages/settings-git')) },
        ],
      },
      {
        path: 'resources',
        element: <Outlet />,
        children: [
          { index: true, element: <Navigate to="images" replace /> },
          { path: 'images', handle: named('Images'), lazy: page(() => import('./pages/images-list')) },
          {
            path: 'images/:imageid',
            handle: named('Image Details'),
            lazy: page(() => import('./pages/image-details')),
          },
          { path: 'volumes', handle: named('Volumes'), lazy: page(() => import('./pages/volumes-list')) },
          {
            path: 'volumes/:volumeName',
            handle: named('Volume Details'),
            lazy: page(() => import('./pages/volume-layout')),
            children: [
              { index: true, element: <Navigate to="info" replace /> },
              // The spec's screen name (the parent's) stays on the Info tab.
              { path: 'info', lazy: page(() => import('./pages/volume-details')) },
              {
                path: 'files',
                handle: named('Files'),
                lazy: gated(volumeFilesApi.list, () => import('./pages/volume-files')),
              },
            ],
          },
          { path: 'networks', handle: named('Networks'), lazy: page(() => import('./pages/networks-list')) },
          {
            path: 'networks/new',
            handle: named('New Network'),
            lazy: gated(networkApi.create, () => import('./pages/network-new')),
          },
          {
            path: 'networks/:networkid',
            handle: named('Network Details'),
            lazy: page(() => import('./pages/network-details')),
          },
        ],
      },
      {
        path: 'swarm',
        lazy: page(() => import('./pages/swarm-gate')),
        children: [
          { index: true, handle: named('Swarm'), lazy: page(() => import('./pages/swarm-overview')) },
          { path: 'nodes', handle: named('Nodes'), lazy: page(() => import('./pages/swarm-nodes')) },
          { path: 'services', handle: named('Services'), lazy: page(() => import('./pages/swarm-services')) },
          {
            path: 'services/new',
            handle: named('Create Service'),
            lazy: gated(swarmApi.createService, () => import('./pages/swarm-service-new')),
          },
          { path: 'services/:serviceId', handle: named('Service'), lazy: page(() => import('./pages/swarm-service')) },
          { path: 'stacks', handle: named('Stacks'), lazy: page(() => import('./pages/swarm-stacks')) },
          {
            path: 'stacks/new',
            handle: named('Deploy Stack'),
            lazy: gated(swarmApi.deployStack, () => import('./pages/swarm-stack')),
          },
          {
            path: 'stacks/_/from-git',
            handle: named('New stack from git'),
            lazy: gated(gitApi.stackFromGit, () => import('./pages/stack-from-git')),
          },
          { path: 'stacks/:stackName', handle: named('Stack'), lazy: page(() => import('./pages/swarm-stack')) },
          { path: 'configs', handle: named('Configs'), lazy: page(() => import('./pages/swarm-configs')) },
          { path: 'secrets', handle: named('Secrets'), lazy: page(() => import('./pages/swarm-secrets')) },
        ],
      },
      { path: 'events', handle: named('Events'), lazy: page(() => import('./pages/events')) },
      { path: 'backups', handle: named('Backups'), lazy: gated(backupsApi.jobs, () => import('./pages/backups')) },
      { path: '*', handle: named('Not Found'), lazy: page(() => import('./pages/not-found')) },
    ],
  },
];
