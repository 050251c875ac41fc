import { useState } from 'react';
import { Alert, Anchor, Loader, Stack, Text } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { PullImageDialog } from '../../features/images';
import { registriesQuery, RegistryBrowser } from '../../features/registries';
import { errorMessage } from '../../lib/notify';

/** /settings/registries/:registryId: a registry's repositories and tags, with Pull and Deploy per tag. */
export default function RegistryBrowserPage() {
  const { registryId } = useParams();
  const navigate = useNavigate();
  const list = useQuery(registriesQuery());
  const [pulling, setPulling] = useState<string | null>(null);
  const registry = list.data?.find((r) => String(r.id) === registryId);
  if (list.isPending) return <Loader aria-label="Loading registry" />;
  if (list.error) return <Alert color="red">{errorMessage(list.error)}</Alert>;
  if (!registry) return <Alert color="red">Registry {registryId} was not found.</Alert>;
  return (
    <Stack>
      <Text size="sm">
        <Anchor component={Link} to="/settings/registries">
          Registries
        </Anchor>{' '}
        / {registry.name} ({registry.server_address})
      </Text>
      <RegistryBrowser
        registry={registry}
        onPull={setPulling}
        onDeploy={(image) => navigate(`/apps/deploy?image=${encodeURIComponent(image)}`)}
      />
      {pulling && <PullImageDialog key={pulling} opened initialImage={pulling} onClose={() => setPulling(null)} />}
    </Stack>
  );
}
