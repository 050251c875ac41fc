import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type PolicyAnswer } from '@berth/contract';
import { judgeWith } from '../../lib/policy';
import { composeDiagnostics } from './compose-lint';

// The default policy of a new install, with Berth's data folder always refused, as the server answers it.
const answer: PolicyAnswer = {
  environment: 'local',
  policy: DEFAULT_POLICY,
  always_refused: [{ path: '/srv/berth-data', what: "Berth's data folder" }],
  updated_at: null,
  updated_by: null,
};
const operator = (features: Parameters<typeof judgeWith>[2]) => judgeWith(answer, 'operator', features);

const FILE = `services:
  web:
    image: busybox
    privileged: true
    volumes:
      - /srv/berth-data:/data
`;

describe('compose editor marks', () => {
  it("marks what the operator policy refuses where it is written, in the rule's words", () => {
    const marks = composeDiagnostics(FILE, operator);
    expect(marks.map((m) => m.source)).toEqual(['Policy', 'Policy']);
    const bind = marks.find((m) => m.message.startsWith('Bind mount /srv/berth-data'))!;
    expect(bind.message).toContain("Berth's data folder");
    expect(FILE.slice(bind.from, bind.to)).toContain('/srv/berth-data:/data');
    const privileged = marks.find((m) => m.message.startsWith('Privileged'))!;
    expect(FILE.slice(privileged.from, privileged.to)).toContain('true');
  });

  it('marks nothing of the policy for an admin (no judge) or a file within it', () => {
    expect(composeDiagnostics(FILE)).toEqual([]);
    expect(composeDiagnostics('services:\n  web:\n    image: busybox\n', operator)).toEqual([]);
  });
});
