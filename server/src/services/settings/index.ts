import type { StatsSourceKind } from '@berth/contract';
import type { Uses } from '../../context';
import { SettingsImportRepo } from '../../db/settings-import-repo';
import { TemplatesRepo } from '../../db/templates-repo';
import { VariablesRepo } from '../../db/variables-repo';
import type { StorageStatus } from '../storage/storage-status';
import { ServerInfoService } from './server-info';
import { SettingsExportService } from './settings-export';

/** Settings: Berth's own info (health, version, compose CLI, folders) and the export/import of templates and variables. */
export function createSettings(
  ctx: Uses<'compose' | 'composeReady' | 'db' | 'engine' | 'version', 'composeDir' | 'dataDir' | 'disableAuth'>,
  /** Which source the local stats hub runs. */
  statsSource: () => StatsSourceKind,
  /** Whether DATA_DIR has room to write (health says "disk full"). */
  storage: StorageStatus,
) {
  return {
    serverInfo: new ServerInfoService(ctx, statsSource, storage),
    settings: new SettingsExportService(
      new TemplatesRepo(ctx.db),
      new VariablesRepo(ctx.db),
      new SettingsImportRepo(ctx.db),
    ),
  };
}
