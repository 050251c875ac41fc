import { ActionIcon, Button, Card, Group, Loader, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { variablesApi, type TemplateVariable } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { notifyPlain } from '../../../lib/notify';
import { useSaveVariables, variablesQuery } from '../api';
import { validateVariables } from '../validate';

type Values = { rows: TemplateVariable[] };

/** Settings → Template Variables: `!name` → replacement rows, saved as a whole list. */
export function TemplateVariablesForm() {
  const variables = useQuery(variablesQuery());
  const save = useSaveVariables();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { rows: [] },
    validate: validateVariables,
    validateInputOnChange: true,
    validateInputOnBlur: true,
  });
  const { initialize } = form;
  useEffect(() => {
    if (variables.data)
      initialize({ rows: variables.data.map(({ variable, replacement }) => ({ variable, replacement })) });
  }, [variables.data, initialize]);
  const valid = Object.keys(validateVariables(form.values)).length === 0;

  const submit = form.onSubmit((values) =>
    save.mutate(
      values.rows.map((r) => ({ variable: r.variable.trim(), replacement: r.replacement.trim() })),
      {
        onSuccess: (rows) => {
          form.setInitialValues({ rows });
          notifyPlain('Saved');
        },
      },
    ),
  );

  if (variables.isLoading) return <Loader aria-label="Loading" />;
  if (variables.error) return <Text c="red">{variables.error.message}</Text>;
  return (
    <Card withBorder maw={900} style={{ background: 'var(--berth-surface)' }}>
      <form onSubmit={submit} aria-label="Template variables" noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            A variable such as <code>!config</code> in a template's volume paths, environment values or labels is
            replaced by its value when the app is deployed.
          </Text>
          {form.values.rows.map((_, i) => (
            <Group key={form.key(`rows.${i}`)} align="flex-start" wrap="nowrap" gap="xs">
              <TextInput
                label={i === 0 ? 'Variable' : undefined}
                aria-label={`Variable ${i + 1}`}
                placeholder="!name"
                style={{ flex: 1 }}
                {...form.getInputProps(`rows.${i}.variable`)}
              />
              <TextInput
                label={i === 0 ? 'Replacement' : undefined}
                aria-label={`Replacement ${i + 1}`}
                placeholder="/srv/path"
                style={{ flex: 2 }}
                {...form.getInputProps(`rows.${i}.replacement`)}
              />
              <Can route={variablesApi.save}>
                <Tooltip label="Remove row">
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mt={i === 0 ? 28 : 4}
                    aria-label={`Remove row ${i + 1}`}
                    onClick={() => form.removeListItem('rows', i)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </Can>
            </Group>
          ))}
          {form.values.rows.length === 0 && <Text c="dimmed">No variables.</Text>}
          <Can route={variablesApi.save}>
            <Group>
              <Button
                variant="default"
                leftSection={<IconPlus size={16} />}
                onClick={() => form.insertListItem('rows', { variable: '!', replacement: '' })}
              >
                Add row
              </Button>
              <Button type="submit" disabled={!valid} loading={save.isPending}>
                Save
              </Button>
            </Group>
          </Can>
        </Stack>
      </form>
    </Card>
  );
}
