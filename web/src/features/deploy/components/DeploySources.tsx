import { Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { templateItemQuery } from '../../templates';
import { editAppQuery, imageConfigQuery } from '../api';
import { fromApp } from '../from-app';
import { fromTemplateItem } from '../form-model';
import { DeployForm } from './DeployForm';
import { useEnvironment } from '../../../lib/environment';

const ErrorText = ({ error }: { error: Error }) => <Text c="red">{error.message}</Text>;

/** The form pre-filled from one catalogue item (variables left for the server to substitute). */
export function DeployFromTemplateItem({ itemId }: { itemId: number }) {
  const item = useQuery(templateItemQuery(itemId));
  if (item.isLoading) return <Loader aria-label="Loading" />;
  if (item.error) return <ErrorText error={item.error} />;
  if (!item.data) return null;
  return <DeployForm key={item.data.id} initial={fromTemplateItem(item.data)} prefilled />;
}

/** The form pre-filled from an existing app's configuration; Deploy replaces it. */
export function EditApp({ appName }: { appName: string }) {
  const env = useEnvironment();
  const app = useQuery(editAppQuery(env, appName));
  const imageId = app.data?.Image ?? '';
  const image = useQuery({ ...imageConfigQuery(env, imageId), enabled: !!imageId });
  if (app.isLoading || (imageId && image.isLoading)) return <Loader aria-label="Loading" />;
  if (app.error) return <ErrorText error={app.error} />;
  if (!app.data) return null;
  // Without the image's configuration the form still works; it then lists the image's own env and labels too.
  return (
    <DeployForm
      key={app.data.Id}
      initial={fromApp(app.data, image.data ?? null)}
      prefilled
      edit={{ id: app.data.Id, name: app.data.name }}
    />
  );
}
