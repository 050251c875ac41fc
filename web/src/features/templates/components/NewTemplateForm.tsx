import { Alert, Anchor, Button, Card, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { NewTemplateBody } from '@berth/contract';
import { templatesQuery, useCreateTemplate } from '../api';
import { reportTemplateWrite } from './skipped-report';

/** A catalogue known to work, offered while the list is empty. */
const SUGGESTED = {
  title: 'Selfhosted Templates',
  url: 'https://raw.githubusercontent.com/SelfhostedPro/selfhosted_templates/yacht/Template/template.json',
};

type Values = { title: string; url: string };

/** The contract's rules (trimmed title 2-255, http(s) URL with host and path) with its messages. */
function validate(values: Values): Record<string, string> {
  const parsed = NewTemplateBody.safeParse(values);
  const errors: Record<string, string> = {};
  if (!parsed.success) for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

export function NewTemplateForm() {
  const navigate = useNavigate();
  const templates = useQuery(templatesQuery());
  const create = useCreateTemplate();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { title: '', url: '' },
    validate,
    validateInputOnChange: true,
    validateInputOnBlur: true,
  });
  const valid = Object.keys(validate(form.values)).length === 0;

  const submit = form.onSubmit((values) =>
    create.mutate(
      { title: values.title.trim(), url: values.url.trim() },
      {
        onSuccess: (result) => {
          reportTemplateWrite(result, 'added');
          navigate('/templates');
        },
      },
    ),
  );

  return (
    <Card withBorder maw={640} style={{ background: 'var(--berth-surface)' }}>
      <form onSubmit={submit} aria-label="New template" noValidate>
        <Stack>
          {templates.data?.length === 0 && (
            <Alert color="blue" title="No templates yet">
              <Text size="sm">
                A template is a catalogue of apps (Portainer v1/v2 or Yacht format, JSON or YAML) fetched from a URL. To
                start with a community catalogue,{' '}
                <Anchor component="button" type="button" size="sm" onClick={() => form.setValues(SUGGESTED)}>
                  use {SUGGESTED.title}
                </Anchor>
                .
              </Text>
            </Alert>
          )}
          <TextInput label="Title" withAsterisk {...form.getInputProps('title')} />
          <TextInput
            label="URL"
            withAsterisk
            placeholder="https://example.com/templates.json"
            {...form.getInputProps('url')}
          />
          <Button type="submit" w="fit-content" disabled={!valid} loading={create.isPending}>
            Submit
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
