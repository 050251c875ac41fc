import { describe, expect, it } from 'vitest';
import { validateVariables } from './validate';

describe('validateVariables', () => {
  it('accepts well-formed rows and an empty list', () => {
    expect(validateVariables({ rows: [{ variable: '!config', replacement: '/srv/config' }] })).toEqual({});
    expect(validateVariables({ rows: [] })).toEqual({});
  });
  it('requires both fields of a row, keyed by form path', () => {
    expect(
      validateVariables({
        rows: [
          { variable: '!a', replacement: 'x' },
          { variable: '', replacement: '' },
        ],
      }),
    ).toEqual({
      'rows.1.variable': 'Variable is required.',
      'rows.1.replacement': 'Replacement is required.',
    });
  });
  it('rejects a name without the leading ! and a duplicate name', () => {
    const errors = validateVariables({
      rows: [
        { variable: 'config', replacement: 'x' },
        { variable: '!b', replacement: 'x' },
        { variable: '!b', replacement: 'y' },
      ],
    });
    expect(errors['rows.0.variable']).toMatch(/start with !/);
    expect(errors['rows.2.variable']).toBe('Duplicate variable !b.');
  });
});
