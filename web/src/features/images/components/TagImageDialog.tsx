import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifySuccess } from '../../../lib/notify';
import { useTagImage } from '../api/transfer';

/** Give an image one more name `repo:tag`. */
export function TagImageDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const tagImage = useTagImage();
  const [repo, setRepo] = useState('');
  const [tag, setTag] = useState('latest');
  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>Tag Image</Text>}>
      <Stack>
        <TextInput
          label="Repository"
          placeholder="registry.example.org/team/app"
          value={repo}
          onChange={(e) => setRepo(e.currentTarget.value)}
        />
        <TextInput label="Tag" value={tag} onChange={(e) => setTag(e.currentTarget.value)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={!repo.trim()}
            loading={tagImage.isPending}
            onClick={() =>
              tagImage.mutate(
                { id, repo: repo.trim(), tag: tag.trim() || 'latest' },
                {
                  onSuccess: () => {
                    notifySuccess(`Tagged ${repo.trim()}:${tag.trim() || 'latest'}.`);
                    onClose();
                  },
                },
              )
            }
          >
            Tag
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
