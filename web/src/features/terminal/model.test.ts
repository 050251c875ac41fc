import { describe, expect, it } from 'vitest';
import { endMessage } from './model';

describe('endMessage', () => {
  it('names the exit code of a process that ended', () => {
    expect(endMessage(1000, 'exit 3')).toBe('The session ended (exit code 3).');
  });
  it("passes on the server's reason for an idle timeout or an engine failure", () => {
    expect(endMessage(4000, 'Closed after 30 min without input.')).toBe(
      'The session ended: Closed after 30 min without input.',
    );
    expect(endMessage(4001, 'No such container: web')).toBe('The session ended: No such container: web');
    expect(endMessage(4003, 'An admin disabled this account.')).toBe(
      'The session ended: An admin disabled this account.',
    );
  });
  it('says a refused or dropped connection may mean the app stopped', () => {
    expect(endMessage(1006, '')).toMatch(/closed or refused.*still runs/);
  });
});
