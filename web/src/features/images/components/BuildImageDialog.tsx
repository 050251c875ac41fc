import { useRef, useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Code,
  FileInput,
  Group,
  Modal,
  ScrollArea,
  Stack,
  Tabs,
  Text,
  TextInput,
  Textarea,
  useComputedColorScheme,
} from '@mantine/core';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { useQueryClient } from '@tanstack/react-query';
import type { BuildImageRequest, BuildResult } from '@berth/contract';
import { textmate, twilight } from '../../../components/compose-editor/editor-themes';
import { errorMessage } from '../../../lib/notify';
import { queryKeys } from '../../../lib/query-keys';
import { useEnvironment } from '../../../lib/environment';
import { buildImage } from '../api/transfer';
import { parseBuildArgs, splitTags } from '../model';
import { GitSourceFields, type CredentialPicker, type GitSource } from './GitSourceFields';
import { UploadProgress } from './UploadProgress';

const LABEL = EditorView.contentAttributes.of({ 'aria-label': 'Dockerfile' });

/**
 * Build an image: a typed Dockerfile (with an optional uploaded context, its upload counted) or a
 * git repository (with a stored credential, picked by `credentialPicker`); live output, cancel.
 */
export function BuildImageDialog({
  opened,
  onClose,
  credentialPicker,
}: {
  opened: boolean;
  onClose: () => void;
  credentialPicker?: CredentialPicker | undefined;
}) {
  const env = useEnvironment();
  const scheme = useComputedColorScheme('light');
  const queryClient = useQueryClient();
  const [source, setSource] = useState<string | null>('dockerfile');
  const [dockerfile, setDockerfile] = useState('FROM busybox\n');
  const [context, setContext] = useState<File | null>(null);
  const [git, setGit] = useState<GitSource>({ url: '', ref: '', subdir: '', credential: null });
  const [upload, setUpload] = useState<{ sent: number; total: number } | null>(null);
  const [tags, setTags] = useState('');
  const [args, setArgs] = useState('');
  const [target, setTarget] = useState('');
  const [noCache, setNoCache] = useState(false);
  const [pull, setPull] = useState(false);
  const [output, setOutput] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<BuildResult | null>(null);
  const [running, setRunning] = useState(false);
  const abort = useRef<AbortController | null>(null);

  const start = async () => {
    const fromGit = source === 'git';
    const options: BuildImageRequest = {
      tags: splitTags(tags),
      build_args: parseBuildArgs(args),
      no_cache: noCache,
      pull,
      ...(target.trim() ? { target: target.trim() } : {}),
      ...(fromGit
        ? {
            git: {
              url: git.url.trim(),
              ...(git.ref ? { ref: git.ref } : {}),
              ...(git.subdir ? { subdir: git.subdir } : {}),
              ...(git.credential ? { credential_id: git.credential } : {}),
            },
          }
        : dockerfile.trim()
          ? { dockerfile }
          : {}),
    };
    setOutput('');
    setError(null);
    setResult(null);
    setUpload(!fromGit && context ? { sent: 0, total: context.size } : null);
    setRunning(true);
    abort.current = new AbortController();
    try {
      const done = await buildImage(
        env,
        options,
        fromGit ? null : context,
        (t) => setOutput((o) => (o + t).slice(-200_000)),
        (sent, total) => setUpload({ sent, total }),
        abort.current.signal,
      );
      setResult(done);
      void queryClient.invalidateQueries({ queryKey: queryKeys.images.list(env) });
    } catch (err) {
      setError(abort.current.signal.aborted ? 'The build was cancelled.' : errorMessage(err));
    } finally {
      setRunning(false);
    }
  };
  const close = () => {
    abort.current?.abort();
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title={<Text fw={600}>Build Image</Text>} size="xl">
      <Stack>
        <Tabs value={source} onChange={setSource}>
          <Tabs.List>
            <Tabs.Tab value="dockerfile">Dockerfile</Tabs.Tab>
            <Tabs.Tab value="git">From git</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="dockerfile" pt="xs">
            <Stack gap="xs">
              <CodeMirror
                value={dockerfile}
                onChange={setDockerfile}
                extensions={[LABEL]}
                theme={scheme === 'dark' ? twilight : textmate}
                height="200px"
              />
              <FileInput
                label="Context (optional)"
                description=".tar, .tar.gz or a .zip of a folder; leave the editor empty to use its own Dockerfile"
                accept=".tar,.tgz,.gz,.zip"
                clearable
                value={context}
                onChange={setContext}
              />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="git" pt="xs">
            <GitSourceFields value={git} onChange={setGit} Picker={credentialPicker} />
          </Tabs.Panel>
        </Tabs>
        <Group grow>
          <TextInput
            label="Tags"
            placeholder="myapp:1.0, myapp:latest"
            value={tags}
            onChange={(e) => setTags(e.currentTarget.value)}
          />
          <TextInput label="Target stage" value={target} onChange={(e) => setTarget(e.currentTarget.value)} />
        </Group>
        <Textarea
          label="Build arguments"
          placeholder="VERSION=1.2"
          autosize
          minRows={1}
          value={args}
          onChange={(e) => setArgs(e.currentTarget.value)}
        />
        <Group>
          <Checkbox label="No cache" checked={noCache} onChange={(e) => setNoCache(e.currentTarget.checked)} />
          <Checkbox label="Pull base images" checked={pull} onChange={(e) => setPull(e.currentTarget.checked)} />
        </Group>
        {upload && <UploadProgress {...upload} />}
        {(output || running) && (
          <ScrollArea h={220} type="auto">
            <Code block aria-label="Build output">
              {output || 'Sending the context…'}
            </Code>
          </ScrollArea>
        )}
        {error && (
          <Alert color="red" role="alert">
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {error}
            </Text>
          </Alert>
        )}
        {result && (
          <Alert color="green" role="status">
            Built {result.id.slice(7, 19)}
            {result.tags.length ? ` as ${result.tags.join(', ')}` : ''}.
          </Alert>
        )}
        <Group justify="flex-end">
          {running ? (
            <Button color="red" variant="light" onClick={() => abort.current?.abort()}>
              Cancel Build
            </Button>
          ) : (
            <Button variant="default" onClick={close}>
              Close
            </Button>
          )}
          <Button loading={running} onClick={() => void start()}>
            Build
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
