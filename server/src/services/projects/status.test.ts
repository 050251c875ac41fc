import { describe, expect, it } from 'vitest';
import { projectStatus } from './status';

const c = (service: string, state: string) => ({ service, state });

describe('projectStatus', () => {
  it('is not created without containers, whatever the file holds', () => {
    expect(projectStatus(['web', 'db'], [])).toEqual({
      state: 'not created',
      services: 2,
      runningServices: 0,
      containers: 0,
      runningContainers: 0,
    });
  });

  it('is running when every service has a running container, partial when some do, stopped when none do', () => {
    expect(projectStatus(['web', 'db'], [c('web', 'running'), c('db', 'running')]).state).toBe('running');
    expect(projectStatus(['web', 'db'], [c('web', 'running'), c('db', 'exited')])).toEqual({
      state: 'partial',
      services: 2,
      runningServices: 1,
      containers: 2,
      runningContainers: 1,
    });
    // A service never brought up counts as not running.
    expect(projectStatus(['web', 'db'], [c('web', 'running')]).state).toBe('partial');
    expect(projectStatus(['web'], [c('web', 'exited'), c('web', 'created')]).state).toBe('stopped');
  });

  it('counts a scaled service once and a container of a service the file dropped', () => {
    const s = projectStatus(['web'], [c('web', 'running'), c('web', 'running'), c('old', 'exited')]);
    expect(s).toEqual({ state: 'partial', services: 2, runningServices: 1, containers: 3, runningContainers: 2 });
  });
});
