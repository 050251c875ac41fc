import { useRef, useState } from 'react';
import { Alert, Button, FileInput, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { PullProgress } from '@berth/contract';
import { errorMessage } from '../../../lib/notify';
import { queryKeys } from '../../../lib/query-keys';
import { useEnvironment } from '../../../lib/environment';
import { loadImages } from '../api/transfer';
import { UploadProgress } from './UploadProgress';

/** Load images from a `docker save` .tar: streamed to the engine, its progress shown. */
export function LoadImageDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<PullProgress | null>(null);
  const [upload, setUpload] = useState<{ sent: number; total: number } | null>(null);
  const [loaded, setLoaded] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const abort = useRef<AbortController | null>(null);

  const start = async () => {
    if (!file) return;
    setError(null);
    setLoaded(null);
    setProgress({ status: `Sending ${file.name}…` });
    setUpload({ sent: 0, total: file.size });
    setRunning(true);
    abort.current = new AbortController();
    try {
      const res = await loadImages(
        env,
        file,
        setProgress,
        (sent, total) => setUpload({ sent, total }),
        abort.current.signal,
      );
      setLoaded(res.loaded);
      queryClient.setQueryData(queryKeys.images.list(env), res.images);
    } catch (err) {
      setError(abort.current.signal.aborted ? 'The load was cancelled.' : errorMessage(err));
    } finally {
      setRunning(false);
    }
  };
  const close = () => {
    abort.current?.abort();
    onClose();
  };
  const pct = progress?.total ? Math.round(((progress.current ?? 0) / progress.total) * 100) : null;

  return (
    <Modal opened={opened} onClose={close} title={<Text fw={600}>Load Images</Text>}>
      <Stack>
        <FileInput
          label="Archive"
          description="A .tar made by docker save or Export"
          accept=".tar,.gz,.tgz"
          value={file}
          onChange={setFile}
        />
        {upload && (running || loaded) && <UploadProgress {...upload} />}
        {running && progress && (
          <Stack gap={4}>
            <Text size="sm">
              {progress.id ? `${progress.id}: ` : ''}
              {progress.status}
            </Text>
            <Progress value={pct ?? 100} animated={pct === null} aria-label="Load progress" />
          </Stack>
        )}
        {loaded && (
          <Alert color="green" role="status">
            Loaded {loaded.join(', ')}.
          </Alert>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {running ? 'Cancel' : 'Close'}
          </Button>
          <Button disabled={!file} loading={running} onClick={() => void start()}>
            Load
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
