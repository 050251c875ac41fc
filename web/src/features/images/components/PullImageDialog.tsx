import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Progress, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { parseImageReference } from '@berth/contract';
import { errorMessage, notifySuccess } from '../../../lib/notify';
import { usePullImage } from '../api/queries';
import { RegistryHint } from '../../registries';
import { emptyPull, foldPull, type PullState } from '../model';

function PullProgressView({ state, done }: { state: PullState; done: boolean }) {
  const percent = done ? 100 : state.percent;
  return (
    <Stack gap={6} role="log" aria-label="Pull progress">
      <Progress
        value={percent ?? 100}
        animated={percent === null || percent < 100}
        striped={percent === null}
        aria-label="Pull progress bar"
      />
      <ScrollArea.Autosize mah={180} type="auto" viewportProps={{ tabIndex: 0 }}>
        <Stack gap={0}>
          {state.messages.map((m, i) => (
            <Text key={`m${i}`} size="xs" ff="monospace">
              {m}
            </Text>
          ))}
          {state.layers.map((l) => (
            <Text key={l.id} size="xs" ff="monospace" c="dimmed">
              {l.id}: {l.status}
            </Text>
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
}

/** 'Pull Image': a reference in, live progress while the engine pulls, the list refreshed after. */
export function PullImageDialog({
  opened,
  onClose,
  initialImage = '',
}: {
  opened: boolean;
  onClose: () => void;
  /** A reference to start from (the registry browser's Pull). */
  initialImage?: string;
}) {
  const [image, setImage] = useState(initialImage);
  const [progress, setProgress] = useState<PullState>(emptyPull);
  const pull = usePullImage((batch) => setProgress((s) => foldPull(s, batch)));
  const parsed = image.trim() ? parseImageReference(image) : null;
  const invalid = parsed && 'error' in parsed ? parsed.error : null;

  const close = () => {
    if (pull.isPending) return;
    setImage('');
    setProgress(emptyPull);
    pull.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!image.trim() || invalid || pull.isPending) return;
    setProgress(emptyPull);
    // The dialog stays open on success so the engine's last words ('Status: …') can be read.
    pull.mutate(image.trim(), { onSuccess: () => notifySuccess(`Pulled ${image.trim()}.`) });
  };

  return (
    <Modal opened={opened} onClose={close} title="Pull Image" centered size="lg" closeOnClickOutside={!pull.isPending}>
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label="Image"
            placeholder="nginx:latest"
            required
            data-autofocus
            value={image}
            disabled={pull.isPending || pull.isSuccess}
            error={invalid}
            onChange={(e) => setImage(e.currentTarget.value)}
          />
          {!invalid && <RegistryHint image={image} />}
          {(pull.isPending || progress.messages.length > 0 || progress.layers.length > 0) && (
            <PullProgressView state={progress} done={pull.isSuccess} />
          )}
          {pull.error && (
            <Text c="red" size="sm" role="alert">
              {errorMessage(pull.error)}
            </Text>
          )}
          <Group justify="flex-end">
            {pull.isSuccess ? (
              <Button onClick={close}>Close</Button>
            ) : (
              <>
                <Button variant="default" onClick={close} disabled={pull.isPending}>
                  Cancel
                </Button>
                <Button type="submit" disabled={!image.trim() || !!invalid} loading={pull.isPending}>
                  Pull
                </Button>
              </>
            )}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
