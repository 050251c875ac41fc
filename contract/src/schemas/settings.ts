import { z } from 'zod';
import { defineRoute } from '../route';
import { ReauthBody } from './auth';
import { Health } from './health';
import { NewTemplateBody, TemplateItemData } from './template';
import { TemplateVariablesBody } from './variables';

/** What an exported settings file says it is; an import refuses anything else. */
export const SETTINGS_FORMAT = 'berth-settings';
export const SETTINGS_FORMAT_VERSION = 1;
/** Largest settings file an import reads. */
export const SETTINGS_FILE_MAX_BYTES = 5 * 1024 * 1024;
export const SETTINGS_MAX_TEMPLATES = 1000;
export const SETTINGS_MAX_ITEMS = 20_000;

const timestamp = z.iso.datetime({ offset: true, error: 'Must be an ISO 8601 date and time.' });

/** A template source as exported: no ids (an import makes new ones), items in catalogue order. */
export const ExportedTemplate = z.strictObject({
  title: NewTemplateBody.shape.title,
  url: NewTemplateBody.shape.url,
  created_at: timestamp,
  updated_at: timestamp,
  items: z.array(z.strictObject(TemplateItemData.shape)).max(5000, 'At most 5000 items per template.'),
});
export type ExportedTemplate = z.infer<typeof ExportedTemplate>;

/**
 * The settings file: template sources with their items and the template variables. Users, API
 * keys and secrets are never part of it.
 */
export const SettingsFile = z
  .strictObject({
    format: z.literal(SETTINGS_FORMAT, { error: `Must be "${SETTINGS_FORMAT}" (this is not a Berth settings file).` }),
    version: z.literal(SETTINGS_FORMAT_VERSION, {
      error: `Unsupported version; this Berth reads version ${SETTINGS_FORMAT_VERSION}.`,
    }),
    exported_at: timestamp,
    templates: z.array(ExportedTemplate).max(SETTINGS_MAX_TEMPLATES, `At most ${SETTINGS_MAX_TEMPLATES} templates.`),
    variables: TemplateVariablesBody,
  })
  .superRefine((file, ctx) => {
    // The database keeps titles (case-insensitively) and URLs unique; say so before writing anything.
    const titles = new Set<string>();
    const urls = new Set<string>();
    let items = 0;
    file.templates.forEach((t, i) => {
      items += t.items.length;
      if (titles.has(t.title.toLowerCase()))
        ctx.addIssue({
          code: 'custom',
          path: ['templates', i, 'title'],
          message: `Duplicate template title ${t.title}.`,
        });
      if (urls.has(t.url))
        ctx.addIssue({ code: 'custom', path: ['templates', i, 'url'], message: `Duplicate template URL ${t.url}.` });
      titles.add(t.title.toLowerCase());
      urls.add(t.url);
    });
    if (items > SETTINGS_MAX_ITEMS)
      ctx.addIssue({
        code: 'custom',
        path: ['templates'],
        message: `At most ${SETTINGS_MAX_ITEMS} template items in all.`,
      });
  });
export type SettingsFile = z.infer<typeof SettingsFile>;

export const ImportResult = z.object({
  success: z.string(),
  templates: z.number().int(),
  items: z.number().int(),
  variables: z.number().int(),
});
export type ImportResult = z.infer<typeof ImportResult>;

export const ServerInfo = z.object({
  version: z.string(),
  engine: z.object({ reachable: z.boolean(), version: z.string().nullable(), apiVersion: z.string().nullable() }),
  compose: Health.shape.compose,
  dataDir: z.string(),
  composeDir: z.string(),
  authDisabled: z.boolean(),
});
export type ServerInfo = z.infer<typeof ServerInfo>;

/** How the last self-update ended (written by the updater, read by the Berth that runs afterwards). */
export const SelfUpdateOutcome = z.object({
  result: z.enum(['updated', 'rolled_back', 'failed']),
  detail: z.string(),
  image: z.string(),
  finishedAt: z.string(),
});
export type SelfUpdateOutcome = z.infer<typeof SelfUpdateOutcome>;

export const SelfUpdateCheck = z.object({
  /** A newer image of Berth's own container is in its registry (the spec's boolean). */
  updatable: z.boolean(),
  /** Why there is nothing to update, when that is not simply "up to date". */
  reason: z.string().nullable(),
  /** Berth's own container and the image reference it runs, when it runs in one. */
  container: z.string().nullable(),
  image: z.string().nullable(),
  checkedAt: z.string(),
  lastUpdate: SelfUpdateOutcome.nullable(),
});
export type SelfUpdateCheck = z.infer<typeof SelfUpdateCheck>;

/** What the UI says once a self-update has started (spec: '{product} is updating now...'). */
export const SELF_UPDATE_MESSAGE = 'Berth is updating now. You will be logged out to complete the update.';

export const SelfUpdateStarted = z.object({
  result: z.literal('started'),
  detail: z.string(),
  container: z.string(),
  image: z.string(),
  /** The container that swaps Berth for its replacement (and back, if the new one is not healthy). */
  updater: z.string(),
});
export type SelfUpdateStarted = z.infer<typeof SelfUpdateStarted>;

export const settingsApi = {
  info: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/settings/info',
    scope: 'global',
    tag: 'settings',
    summary: "Berth's version, the engine, the compose CLI and its folders",
    response: ServerInfo,
  }),
  export: defineRoute({
    method: 'GET',
    role: 'operator',
    path: '/api/settings/export',
    scope: 'global',
    tag: 'settings',
    summary: 'Download templates (with items) and template variables as berth-settings.json',
    response: SettingsFile,
  }),
  import: defineRoute({
    method: 'POST',
    role: 'admin',
    path: '/api/settings/export',
    scope: 'global',
    tag: 'settings',
    summary:
      'Import a settings file (multipart: file field `upload`, text field `current_password`): replaces all templates and variables, or changes nothing',
    response: ImportResult,
  }),
  checkUpdate: defineRoute({
    method: 'GET',
    role: 'admin',
    path: '/api/settings/check/update',
    scope: 'global',
    tag: 'settings',
    summary: "Whether a newer image of Berth's own container is in its registry (the spec's plain boolean)",
    response: z.boolean(),
  }),
  updateStatus: defineRoute({
    method: 'GET',
    role: 'admin',
    path: '/api/settings/update/status',
    scope: 'global',
    tag: 'settings',
    summary: 'The self-update check with its details: why not, which container and image, the last update',
    response: SelfUpdateCheck,
  }),
  update: defineRoute({
    method: 'POST',
    role: 'admin',
    path: '/api/settings/update',
    scope: 'global',
    tag: 'settings',
    summary: "Pull Berth's image and swap its container for a new one; rolled back if the new one is not healthy",
    alsoMethods: ['GET'],
    /**
     * Re-authentication (`current_password`); a GET has no body, so it cannot start an update
     * while auth is on. The server checks it itself: Fastify takes no body schema on a GET route.
     */
    body: ReauthBody,
    response: SelfUpdateStarted,
  }),
};
