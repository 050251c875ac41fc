import {
  IconBolt,
  IconPlayerTrackNext,
  IconPlayerPlay,
  IconPlayerStop,
  IconRotateClockwise,
} from '@tabler/icons-react';
import type { App, AppAction, AppBatchAction } from '@berth/contract';
import type { BatchAction } from '../../../components/BatchBar';

export interface ActionEntry {
  action: Exclude<AppAction, 'remove'>;
  label: string;
  icon: typeof IconPlayerPlay;
  color?: string;
  /** Whether the action means anything for an app in this State.Status. */
  applies: (status: string) => boolean;
}

const live = (s: string) => s === 'running' || s === 'paused' || s === 'restarting';

/** The lifecycle actions offered in the row menu and the app header (Remove is separate: it confirms). */
export const LIFECYCLE_ACTIONS: readonly ActionEntry[] = [
  { action: 'start', label: 'Start', icon: IconPlayerPlay, color: 'green', applies: (s) => !live(s) },
  { action: 'stop', label: 'Stop', icon: IconPlayerStop, color: 'orange', applies: live },
  { action: 'restart', label: 'Restart', icon: IconRotateClockwise, applies: () => true },
  { action: 'kill', label: 'Kill', icon: IconBolt, color: 'red', applies: live },
];

/** Paused apps also get Unpause (Berth's API offers pause/unpause; the spec's screens do not). */
export const UNPAUSE: ActionEntry = {
  action: 'unpause',
  label: 'Unpause',
  icon: IconPlayerTrackNext,
  applies: (s) => s === 'paused',
};

/** The lifecycle actions for an app in this status. */
export const actionsFor = (status: string | undefined): readonly ActionEntry[] =>
  status === 'paused' ? [...LIFECYCLE_ACTIONS, UNPAUSE] : LIFECYCLE_ACTIONS;

const status = (a: App) => a.State.Status;

/** What the selection bar of the Applications table offers, each when it applies to every selected app. */
export const BATCH_ACTIONS: readonly BatchAction<App, AppBatchAction>[] = [
  { key: 'start', label: 'Start', done: 'started', color: 'green', applies: (a) => !live(status(a)) },
  { key: 'stop', label: 'Stop', done: 'stopped', color: 'orange', applies: (a) => live(status(a)) },
  { key: 'restart', label: 'Restart', done: 'restarted' },
  { key: 'pause', label: 'Pause', done: 'paused', applies: (a) => status(a) === 'running' },
  { key: 'unpause', label: 'Unpause', done: 'unpaused', applies: (a) => status(a) === 'paused' },
  { key: 'kill', label: 'Kill', done: 'killed', color: 'red', applies: (a) => live(status(a)) },
  { key: 'update', label: 'Update', done: 'updated' },
  { key: 'remove', label: 'Remove', done: 'removed', color: 'red', danger: true },
];
