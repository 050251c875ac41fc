import { useEffect, useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Stack, Text, useComputedColorScheme } from '@mantine/core';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { textmate, twilight } from '../compose-editor/editor-themes';
import { errorMessage } from '../../lib/notify';
import { canCall, useSession } from '../../lib/session';
import { filesApi, useFileContent, useSaveFile, type FilesTarget } from './files-api';

const LABEL = EditorView.contentAttributes.of({ 'aria-label': 'File content' });

/** A text file of the app or volume in a small editor, saved back in place (its mode and owner kept). */
export function FileEditor({ target, path, onClose }: { target: FilesTarget; path: string; onClose: () => void }) {
  const scheme = useComputedColorScheme('light');
  const file = useFileContent(target, path);
  const save = useSaveFile(target);
  // A viewer (where the policy lets them read files) reads the file, nothing more.
  const writable = canCall(useSession().role, filesApi(target.kind).write);
  const [text, setText] = useState<string | null>(null);
  useEffect(() => setText(file.data?.content ?? null), [file.data]);
  const dirty = text !== null && text !== file.data?.content;
  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>{path}</Text>} size="xl">
      <Stack>
        {file.isPending && <Loader size="sm" />}
        {file.error && (
          <Alert color="yellow" role="alert">
            {errorMessage(file.error)}
          </Alert>
        )}
        {file.data && text !== null && (
          <>
            <Text size="xs" c="dimmed">
              {file.data.mode} · {file.data.owner} · {file.data.size} bytes
            </Text>
            <CodeMirror
              value={text}
              onChange={setText}
              extensions={[LABEL]}
              theme={scheme === 'dark' ? twilight : textmate}
              height="420px"
              editable={writable}
              basicSetup={{ tabSize: 2 }}
            />
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          {writable && (
            <Button
              disabled={!dirty}
              loading={save.isPending}
              onClick={() => text !== null && save.mutate({ path, content: text }, { onSuccess: onClose })}
            >
              Save
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
