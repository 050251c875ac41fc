import { Code, Stack, Text } from '@mantine/core';
import type { ImageDetail } from '@berth/contract';
import { formatBytes, formatDate } from '../../../lib/format';
import { Section } from '../../../components/Section';
import { EnvValuesNote } from '../../../components/RoleGate';
import { imageCommand } from '../model';
import { ImageTags } from './ImageTags';
import { NameList } from './ImageNames';
import { FieldGrid, PairsTable } from '../../../components/Fields';

const list = (items: readonly string[] | null | undefined) =>
  items && items.length ? <Code>{items.join(' ')}</Code> : '-';

/** Everything the spec shows of one image: facts, then its run configuration. */
export function ImageDetails({ image }: { image: ImageDetail }) {
  const config = image.ContainerConfig;
  const command = imageCommand(config);
  const env = Object.fromEntries((config.Env ?? []).map((e) => [e.split('=')[0] ?? e, e.slice(e.indexOf('=') + 1)]));
  return (
    <Stack>
      <FieldGrid
        fields={[
          { label: 'ID', value: image.Id, mono: true },
          { label: image.RepoTags.length > 1 ? 'Tags' : 'Tag', value: <ImageTags image={image} /> },
          { label: 'Digests', value: <NameList names={image.RepoDigests} /> },
          { label: 'Architecture', value: image.Architecture },
          { label: 'Os', value: image.Os },
          { label: 'Created', value: formatDate(image.Created) },
          { label: 'Size', value: formatBytes(image.Size) },
          { label: 'Virtual Size', value: formatBytes(image.VirtualSize) },
          { label: 'Used by', value: `${image.inUse} container${image.inUse === 1 ? '' : 's'}` },
        ]}
      />
      <Section title="Container Config">
        <Stack>
          <FieldGrid
            fields={[
              ...(command ? [{ label: 'Command', value: <Code>{command}</Code> }] : []),
              { label: 'Entrypoint', value: list(config.Entrypoint) },
              { label: 'Exposed Ports', value: list(Object.keys(config.ExposedPorts ?? {})) },
            ]}
          />
          <Text fw={600} size="sm">
            Labels
          </Text>
          <PairsTable label="Labels" keyHeader="Label" pairs={config.Labels} />
          <Text fw={600} size="sm">
            Environment
          </Text>
          <EnvValuesNote />
          <PairsTable label="Environment" pairs={env} />
        </Stack>
      </Section>
    </Stack>
  );
}
