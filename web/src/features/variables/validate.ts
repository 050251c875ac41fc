import { TemplateVariablesBody, type TemplateVariable } from '@berth/contract';

/** Errors keyed like the form paths (`rows.0.variable`), from the contract's rules and messages. */
export function validateVariables(values: { rows: TemplateVariable[] }): Record<string, string> {
  const parsed = TemplateVariablesBody.safeParse(values.rows);
  const errors: Record<string, string> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.length >= 2 ? `rows.${issue.path.slice(0, 2).join('.')}` : 'rows';
      errors[key] ??= issue.message;
    }
  }
  return errors;
}
