import { describe, expect, it } from 'vitest';
import { initialValues, toBody } from './channel-fields';

describe('channel form', () => {
  it('sends the type and the filled fields of a new channel, numbers as numbers', () => {
    expect(
      toBody(
        'email',
        { name: ' mail ', host: 'smtp', port: '25', tls: 'none', from: 'a@b.c', to: 'd@e.f', user: '', password: 'pw' },
        false,
      ),
    ).toEqual({
      name: 'mail',
      type: 'email',
      host: 'smtp',
      port: 25,
      tls: 'none',
      password: 'pw',
      from: 'a@b.c',
      to: 'd@e.f',
    });
  });

  it('keeps an empty secret when editing, clears one asked for, and never pre-fills a secret', () => {
    expect(
      toBody('webhook', { name: 'h', url: 'http://x', header_value: '', signing_secret: '' }, true, ['signing_secret']),
    ).toEqual({ name: 'h', url: 'http://x', signing_secret: null });
    const values = initialValues(
      { id: 1, name: 'd', type: 'discord', secrets_set: ['url'], created_at: '', updated_at: '' },
      'discord',
    );
    expect(values.url).toBeUndefined();
  });
});
