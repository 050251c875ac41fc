import { Checkbox, MultiSelect, NumberInput, PasswordInput, Select, Textarea, TextInput } from '@mantine/core';
import type { FieldSpec, FieldValue } from '../form-schema';

/**
 * One input of a generated form, chosen by its spec (from the contract's schema). `choices` lists
 * what the `volumes` and `project` pickers offer (the job's environment's volumes and projects).
 */
export function FieldInput({
  f,
  value,
  onChange,
  choices = [],
}: {
  f: FieldSpec;
  value: FieldValue;
  onChange: (v: FieldValue) => void;
  choices?: string[];
}) {
  const common = { label: f.label, description: f.description, required: f.required };
  const text = Array.isArray(value) ? '' : String(value);
  const typed = (e: { currentTarget: { value: string } }) => onChange(e.currentTarget.value);
  switch (f.input) {
    case 'checkbox':
      return (
        <Checkbox
          label={f.label}
          description={f.description}
          checked={Boolean(value)}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
      );
    case 'volumes':
      return (
        <MultiSelect
          {...common}
          data={[...new Set([...choices, ...(Array.isArray(value) ? value : [])])].sort()}
          value={Array.isArray(value) ? value : []}
          onChange={onChange}
          searchable
        />
      );
    case 'project':
    case 'select':
      return (
        <Select
          {...common}
          data={f.input === 'project' ? choices : (f.options ?? [])}
          value={text || null}
          onChange={(v) => onChange(v ?? '')}
          searchable={f.input === 'project'}
          allowDeselect={!f.required}
        />
      );
    case 'number':
      return <NumberInput {...common} value={text} onChange={(v) => onChange(String(v))} allowDecimal={false} />;
    case 'secret':
      return <PasswordInput {...common} autoComplete="new-password" value={text} onChange={typed} />;
    case 'multiline':
      return <Textarea {...common} ff="monospace" autosize minRows={2} maxRows={8} value={text} onChange={typed} />;
    default:
      return <TextInput {...common} autoComplete="off" value={text} onChange={typed} />;
  }
}
