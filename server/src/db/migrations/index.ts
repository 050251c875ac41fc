import m001 from './001-users-sessions-api-keys';
import m002 from './002-templates-variables';
import m003 from './003-drop-settings';
import m004 from './004-environments';
import m005 from './005-roles-totp-oidc';
import m006 from './006-events-audit-notifications';
import m008 from './008-auto-update';
import m009 from './009-email-self-set';
import m010 from './010-environment-policies';
import m011 from './011-registries';
import m012 from './012-environment-agents';
import m013 from './013-revisions';
import m014 from './014-git-sources';
import m015 from './015-backups';
import m016 from './016-backup-retention';
import m017 from './017-backup-targets';
import m018 from './018-log-archives';
import m019 from './019-auto-update-version-policy';
import m020 from './020-auto-heal-thresholds';
import m021 from './021-git-source-kinds';
import m022 from './022-auto-heal-gave-up';

/**
 * One schema change of berth.db. Numbered, append-only: never edit a released migration; add the
 * next number in a file of its own (`NNN-what-it-does.ts`, default export) and list it below.
 */
export interface Migration {
  version: number;
  sql: string;
}

/*
 * There is no 7, and there never will be: numbers were handed out ahead to work done in parallel,
 * and 7 went to the stats history, which landed in a database of its own (stats-history.db beside
 * berth.db) and needed no migration, while 8 (auto-update) had already been written. Databases in
 * use have 8 without 7; a new 7 would run after 8 on them but before it on a new database, so the
 * number stays unused. migrate() applies, in this order, every version a database has not yet applied.
 */
const ALL: Migration[] = [
  m001,
  m002,
  m003,
  m004,
  m005,
  m006,
  m008,
  m009,
  m010,
  m011,
  m012,
  m013,
  m014,
  m015,
  m016,
  m017,
  m018,
  m019,
  m020,
  m021,
  m022,
];

/** Every migration, in increasing version order (sorted here, so the list above cannot misorder them). */
export const migrations: Migration[] = [...ALL].sort((a, b) => a.version - b.version);
