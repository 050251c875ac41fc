import { useState } from 'react';
import { TextInput } from '@mantine/core';
import { formatCommandLine, parseCommandLine } from '@berth/contract';
import type { DeployForm } from '../use-deploy-form';

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The command as one line (Portainer's "Command"), split like a shell into the form's argument
 * list, which Advanced → Command shows row by row. The line follows the rows: what is typed stays
 * as typed while it still splits into them, else the rows are written back as a line.
 */
export function CommandLineField({ form }: { form: DeployForm }) {
  const args = form.values.command;
  const [typed, setTyped] = useState<string | null>(null);
  const parsed = typed === null ? null : parseCommandLine(typed);
  const error = parsed && !Array.isArray(parsed) ? parsed.error : null;
  // Rows changed elsewhere (Advanced): the typed text no longer says them, so the line is the rows again.
  const line =
    typed !== null && (error || (Array.isArray(parsed) && same(parsed, args))) ? typed : formatCommandLine(args);
  return (
    <TextInput
      label="Command"
      placeholder="the image's default command"
      description="Split like a shell: quotes group words, no variables or pipes. Advanced → Command shows its arguments one per row."
      autoComplete="off"
      spellCheck={false}
      ff="monospace"
      value={line}
      error={error}
      onChange={(e) => {
        const text = e.currentTarget.value;
        setTyped(text);
        const words = parseCommandLine(text);
        if (Array.isArray(words)) form.setFieldValue('command', words);
      }}
    />
  );
}
