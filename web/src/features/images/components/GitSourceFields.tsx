import type { ComponentType } from 'react';
import { Group, Stack, TextInput } from '@mantine/core';

/** The git credential picker a page hands the Build dialog (the git feature's, so both forms pick alike). */
export type CredentialPicker = ComponentType<{ value: string | null; onChange: (id: string | null) => void }>;

export interface GitSource {
  url: string;
  ref: string;
  subdir: string;
  credential: string | null;
}

/** A build's git source: repository URL, ref, folder and the credential a private repository needs. */
export function GitSourceFields({
  value,
  onChange,
  Picker,
}: {
  value: GitSource;
  onChange: (next: GitSource) => void;
  Picker?: CredentialPicker | undefined;
}) {
  return (
    <Stack gap="xs">
      <TextInput
        label="Repository URL"
        description="https://, git://, ssh:// or user@host:path"
        placeholder="https://example.org/app.git"
        value={value.url}
        onChange={(e) => onChange({ ...value, url: e.currentTarget.value })}
      />
      <Group grow>
        <TextInput
          label="Ref"
          placeholder="default branch"
          value={value.ref}
          onChange={(e) => onChange({ ...value, ref: e.currentTarget.value })}
        />
        <TextInput
          label="Folder"
          placeholder="the repository root"
          value={value.subdir}
          onChange={(e) => onChange({ ...value, subdir: e.currentTarget.value })}
        />
      </Group>
      {Picker && <Picker value={value.credential} onChange={(credential) => onChange({ ...value, credential })} />}
    </Stack>
  );
}
