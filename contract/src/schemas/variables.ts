import { z } from 'zod';
import { defineRoute } from '../route';

/** A variable is a whole token: `!` then letters, digits or `_` (so `!data` never matches inside `!database`). */
export const VARIABLE_NAME = /^![A-Za-z0-9_]+$/;

export const TemplateVariable = z.object({ variable: z.string(), replacement: z.string() });
export type TemplateVariable = z.infer<typeof TemplateVariable>;

export const TemplateVariableRow = z.strictObject({
  variable: z
    .string({ error: 'Variable is required.' })
    .trim()
    .min(1, 'Variable is required.')
    .max(255, 'Variable is at most 255 characters.')
    .regex(VARIABLE_NAME, 'Variable must start with ! followed by letters, digits or _ (e.g. !config).'),
  replacement: z
    .string({ error: 'Replacement is required.' })
    .trim()
    .min(1, 'Replacement is required.')
    .max(4096, 'Replacement is at most 4096 characters.'),
});

/** The complete list (full replace); names must be unique. */
export const TemplateVariablesBody = z
  .array(TemplateVariableRow)
  .max(500, 'At most 500 variables.')
  .superRefine((rows, ctx) => {
    const seen = new Map<string, number>();
    rows.forEach((row, i) => {
      if (seen.has(row.variable))
        ctx.addIssue({ code: 'custom', path: [i, 'variable'], message: `Duplicate variable ${row.variable}.` });
      else seen.set(row.variable, i);
    });
  });

export const variablesApi = {
  list: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/settings/variables',
    scope: 'global',
    tag: 'variables',
    summary: 'Template variables (!name → replacement)',
    response: z.array(TemplateVariable),
  }),
  save: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/settings/variables',
    scope: 'global',
    tag: 'variables',
    summary: 'Replace the whole list of template variables',
    body: TemplateVariablesBody,
    response: z.array(TemplateVariable),
  }),
};
