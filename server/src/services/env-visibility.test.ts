import { describe, expect, it } from 'vitest';
import { ENV_VALUE_MASK, type StackDetail } from '@berth/contract';
import { HIDDEN_FILE, maskStackEnv } from './env-visibility';

const stack = (content: string | null): StackDetail => ({ name: 's', services: 0, running: 0, desired: 0, hasFile: content !== null, content, serviceList: [] });

describe('maskStackEnv', () => {
  it("masks a stack file's environment values and keeps the rest", () => {
    const masked = maskStackEnv(stack('services:\n  web:\n    image: nginx # front\n    environment:\n      TOKEN: stack-secret\n')).content!;
    expect(masked).not.toContain('stack-secret');
    expect(masked).toContain(`TOKEN: "${ENV_VALUE_MASK}"`);
    expect(masked).toContain('image: nginx # front');
  });

  it('hides a file it cannot parse, and leaves a stack without a file as it is', () => {
    expect(maskStackEnv(stack('services:\n  web:\n    environment: [TOKEN=stack-secret\n')).content).toBe(HIDDEN_FILE);
    expect(maskStackEnv(stack(null)).content).toBeNull();
  });
});
