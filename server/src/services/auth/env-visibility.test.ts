import { describe, expect, it } from 'vitest';
import { ENV_VALUE_MASK, type ImageDetail, type StackDetail } from '@berth/contract';
import { HIDDEN_FILE, maskImageEnv, maskStackEnv } from './env-visibility';

const stack = (content: string | null): StackDetail => ({
  name: 's',
  services: 0,
  running: 0,
  desired: 0,
  hasFile: content !== null,
  content,
  serviceList: [],
});

describe('maskStackEnv', () => {
  it("masks a stack file's environment values, drops its comments (they hold old values too) and keeps the rest", () => {
    const file =
      '# DB_PASSWORD=top-secret\nservices:\n  web:\n    image: nginx # was secret-tag\n    environment:\n      # - OLD=commented-secret\n      TOKEN: stack-secret # was older-secret\n';
    const masked = maskStackEnv(stack(file)).content!;
    for (const secret of ['stack-secret', 'top-secret', 'secret-tag', 'commented-secret', 'older-secret'])
      expect(masked).not.toContain(secret);
    expect(masked).toContain(`TOKEN: "${ENV_VALUE_MASK}"`);
    expect(masked).toContain('image: nginx');
  });

  it('hides a file it cannot parse, and leaves a stack without a file as it is', () => {
    expect(maskStackEnv(stack('services:\n  web:\n    environment: [TOKEN=stack-secret\n')).content).toBe(HIDDEN_FILE);
    expect(maskStackEnv(stack(null)).content).toBeNull();
  });
});

describe('maskImageEnv', () => {
  it("masks the image's run config and the engine's own copy of it", () => {
    const image = {
      Id: 'sha256:1',
      ContainerConfig: { Env: ['API_TOKEN=baked-secret'] },
      Config: { Env: ['API_TOKEN=baked-secret', 'PATH=/bin'] },
    } as unknown as ImageDetail;
    const masked = JSON.stringify(maskImageEnv(image));
    expect(masked).not.toContain('baked-secret');
    expect(masked).toContain(`API_TOKEN=${ENV_VALUE_MASK}`);
  });
});
