import { Button } from '@mantine/core';
import { IconFolderDown } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { projectApi } from '@berth/contract';
import { api } from '../../../lib/api-client';
import { notifyPlain } from '../../../lib/notify';
import { queryKeys } from '../../../lib/query-keys';
import { useEnvironment } from '../../../lib/environment';

/** A project started outside Berth: copy its file (and .env) into Berth's folder so it can be edited here. */
export function AdoptButton({ name }: { name: string }) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  const adopt = useMutation({
    mutationFn: () => api(projectApi.adopt, { env, params: { name } }),
    onSuccess: (res) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.projects.all(env) });
      notifyPlain(
        res.warnings.length
          ? `Adopted ${name}. ${res.warnings.join(' ')}`
          : `Adopted ${name}; it can be edited here now.`,
        res.warnings.length ? 'yellow' : 'green',
        res.warnings.length ? false : 3000,
      );
    },
  });
  return (
    <Button
      variant="default"
      leftSection={<IconFolderDown size={16} />}
      loading={adopt.isPending}
      onClick={() => adopt.mutate()}
    >
      Adopt
    </Button>
  );
}
