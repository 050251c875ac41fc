import { describe, expect, it } from 'vitest';
import { importFileError } from './api';

const file = (name: string) => new File(['{}'], name, { type: 'application/json' });

describe('importFileError (spec: file required, must be .json)', () => {
  it('requires a file', () => {
    expect(importFileError(null)).toBe('Required.');
  });
  it('accepts .json in any letter case', () => {
    expect(importFileError(file('berth-settings.json'))).toBeNull();
    expect(importFileError(file('EXPORT.JSON'))).toBeNull();
  });
  it('refuses other names, even with json inside them', () => {
    expect(importFileError(file('settings.txt'))).toBe('Must be a .json file.');
    expect(importFileError(file('settings.json.exe'))).toBe('Must be a .json file.');
    expect(importFileError(file('json'))).toBe('Must be a .json file.');
  });
});
