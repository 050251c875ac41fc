import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { imageRegistryHost } from '@berth/contract';
import { useEnvironment } from '../../../lib/environment';
import { registriesQuery } from '../api';

/**
 * Under an image field: which stored credential the server will use for this image (chosen by the
 * reference's registry host, among those this environment may use), or that it pulls anonymously.
 */
export function RegistryHint({ image }: { image: string }) {
  const env = useEnvironment();
  const list = useQuery(registriesQuery());
  const host = image.trim() ? imageRegistryHost(image) : null;
  if (!host || !list.data) return null;
  const match = list.data
    .filter((r) => r.server_address === host && (r.environments === null || r.environments.includes(env)))
    .sort((a, b) => a.id - b.id)[0];
  return (
    <Text size="xs" c="dimmed" role="note" aria-label="Registry credential">
      {match
        ? `${host}: pulled with the stored credential "${match.name}"${match.username ? ` (${match.username})` : ''}.`
        : `${host}: no stored credential for this environment; pulled anonymously.`}
    </Text>
  );
}
