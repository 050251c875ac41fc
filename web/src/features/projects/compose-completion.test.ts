import { describe, expect, it } from 'vitest';
import { COMPOSE_SERVICE_KEYS, COMPOSE_TOP_LEVEL_KEYS } from '@berth/contract';
import { composeKeysAt } from './compose-completion';

describe('composeKeysAt', () => {
  it('offers the top-level keys at the margin and a service key inside a service, nothing elsewhere', () => {
    expect(composeKeysAt(['servi'])).toBe(COMPOSE_TOP_LEVEL_KEYS);
    expect(composeKeysAt(['services:', '  web:', '    image: x', '', '    # note', '    res'])).toBe(COMPOSE_SERVICE_KEYS);
    expect(composeKeysAt(['services:', '  we'])).toBeNull();
    expect(composeKeysAt(['volumes:', '  data:', '    dri'])).toBeNull();
    expect(composeKeysAt(['services:', '  web:', '    environment:', '      A'])).toBeNull();
    expect(composeKeysAt(['services:', '  web:', '    image: bus'])).toBeNull();
  });
});
