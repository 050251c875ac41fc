import {
  SETTINGS_FORMAT,
  SETTINGS_FORMAT_VERSION,
  SettingsFile,
  type ImportResult,
  type TemplateItem,
  type TemplateItemData,
} from '@berth/contract';
import type { SettingsImportRepo } from '../../db/settings-import-repo';
import type { TemplatesRepo } from '../../db/templates-repo';
import type { VariablesRepo } from '../../db/variables-repo';
import { ForbiddenKeyError, InvalidJsonError, InvalidSettingsFileError, ValidationError } from '../../errors';

/** Keys that could reach an object's prototype if some code ever merged the parsed file into an object. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

class ForbiddenKey extends Error {}

/** The first few problems of a failed schema check, as `path: message`, for one readable detail. */
function describeIssues(issues: { path: PropertyKey[]; message: string }[]): { field: string; message: string }[] {
  return issues.slice(0, 10).map((i) => ({ field: i.path.map(String).join('.') || '(file)', message: i.message }));
}

/**
 * Reads a settings file completely before anything is written: JSON (no prototype keys at any
 * depth), then the whole export schema. Throws a 4xx AppError that names the problem.
 */
export function parseSettingsFile(content: Buffer | string): SettingsFile {
  const text = typeof content === 'string' ? content : content.toString('utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text, (key, value: unknown) => {
      if (FORBIDDEN_KEYS.has(key)) throw new ForbiddenKey(key);
      return value;
    });
  } catch (err) {
    if (err instanceof ForbiddenKey) {
      throw new ForbiddenKeyError(
        `The settings file contains the key "${err.message}", which is not allowed anywhere in it.`,
      );
    }
    throw new InvalidJsonError(`The settings file is not valid JSON: ${(err as Error).message}`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new InvalidSettingsFileError('The settings file must be a JSON object as written by Export.');
  }
  const parsed = SettingsFile.safeParse(raw);
  if (!parsed.success) {
    const fields = describeIssues(parsed.error.issues);
    const more =
      parsed.error.issues.length > fields.length ? ` (and ${parsed.error.issues.length - fields.length} more)` : '';
    throw new InvalidSettingsFileError(
      `The settings file does not fit: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}${more}`,
      fields,
    );
  }
  return parsed.data;
}

function exportedItem({ id: _id, template_id: _template, ...data }: TemplateItem): TemplateItemData {
  return data;
}

/** Export and import of the settings that are worth moving between servers: templates and variables. */
export class SettingsExportService {
  constructor(
    private readonly templates: TemplatesRepo,
    private readonly variables: VariablesRepo,
    private readonly importer: SettingsImportRepo,
  ) {}

  /** Never users, API keys or secrets: only what the file format names. */
  export(): SettingsFile {
    return {
      format: SETTINGS_FORMAT,
      version: SETTINGS_FORMAT_VERSION,
      exported_at: new Date().toISOString(),
      templates: this.templates.list().map((t) => ({
        title: t.title,
        url: t.url,
        created_at: t.created_at,
        updated_at: t.updated_at,
        items: this.templates.items(t.id).map(exportedItem),
      })),
      variables: this.variables.list(),
    };
  }

  /** Checked whole, then applied in one transaction: every template and variable is replaced, or none. */
  import(content: Buffer | string | null): ImportResult {
    if (content === null)
      throw new ValidationError('Choose a settings file: send it as multipart/form-data in the field "upload".', [
        { field: 'upload', message: 'Required.' },
      ]);
    const file = parseSettingsFile(content);
    this.importer.replaceAll(file.templates, file.variables);
    return {
      success: 'Import Successful',
      templates: file.templates.length,
      items: file.templates.reduce((n, t) => n + t.items.length, 0),
      variables: file.variables.length,
    };
  }
}
