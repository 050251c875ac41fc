import { TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { emptyRow } from '../form-model';
import type { DeployForm } from '../use-deploy-form';
import { RowList } from './RowList';

type RowField = keyof typeof emptyRow;

export interface TextColumn {
  /** The row property, e.g. 'container'. */
  key: string;
  label: string;
  /** Accessible name prefix; the row number is appended ('Device host 2'). */
  aria: string;
  required?: boolean;
  placeholder?: string;
}

export interface TextRowsProps {
  form: DeployForm;
  field: RowField;
  title: string;
  noun: string;
  columns: readonly TextColumn[];
  hint?: ReactNode;
  /** Inputs after the text columns (a checkbox...). */
  extra?: (index: number) => ReactNode;
}

/** A row list whose rows are text inputs bound to `field.{i}.{key}`; the first row carries the labels. */
export function TextRows({ form, field, title, noun, columns, hint, extra }: TextRowsProps) {
  return (
    <RowList
      title={title}
      noun={noun}
      count={form.values[field].length}
      rowKey={(i) => form.key(`${field}.${i}`)}
      onAdd={() => form.insertListItem(field, emptyRow[field]())}
      onRemove={(i) => form.removeListItem(field, i)}
      error={form.errors[field] as string | undefined}
      hint={hint}
      renderRow={(i) => (
        <>
          {columns.map((c) => (
            <TextInput
              key={c.key}
              label={i === 0 ? c.label : undefined}
              withAsterisk={i === 0 && c.required}
              aria-label={`${c.aria} ${i + 1}`}
              placeholder={c.placeholder}
              {...form.getInputProps(`${field}.${i}.${c.key}`)}
            />
          ))}
          {extra?.(i)}
        </>
      )}
    />
  );
}
