import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type PolicyAnswer } from '@berth/contract';
import { judgeWith } from '../../lib/policy';
import { composeDiagnostics } from './compose-lint';

// The default policy of a new install, with Berth's data folder always refused, as the server answers it.
const answer: PolicyAnswer = {
  environment: 'local',
  policy: DEFAULT_POLICY,
  always_refused: [{ path: '/srv/berth-data', what: "Berth's data folder" }],
  protected_volumes: [{ name: 'berth_data', what: "Berth's own data" }],
  protected_containers: ['berth'],
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

  it("marks Berth's own volume under the name the engine will give it (the project's default, a name:, an external)", () => {
    const file = (top: string) => `services:\n  web:\n    image: busybox\n    volumes:\n      - data:/d\n${top}`;
    const marked = (text: string, project?: string) =>
      composeDiagnostics(text, operator, project).map((m) => text.slice(m.from, m.to));
    expect(marked(file('volumes:\n  data: {}\n'), 'berth')).toEqual(['data:/d']);
    expect(marked(file('volumes:\n  data: {}\n'), 'other')).toEqual([]);
    expect(marked(file('volumes:\n  data: {name: berth_data}\n'))).toEqual(['data:/d']);
    expect(marked(file('volumes:\n  data: {external: {name: berth_data}}\n'), 'x')).toEqual(['data:/d']);
  });

  it('marks nothing of the policy for an admin (no judge) or a file within it', () => {
    expect(composeDiagnostics(FILE)).toEqual([]);
    expect(composeDiagnostics('services:\n  web:\n    image: busybox\n', operator)).toEqual([]);
  });
});
