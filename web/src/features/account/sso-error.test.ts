import { describe, expect, it } from 'vitest';
import { OIDC_ERRORS } from '@berth/contract';
import { ssoErrorMessage } from './sso-error';

describe('ssoErrorMessage', () => {
  it('words every code the server sends, and an unknown code as a plain failure', () => {
    const messages = OIDC_ERRORS.map((code) => ssoErrorMessage(`?sso_error=${code}`));
    expect(new Set(messages).size).toBe(OIDC_ERRORS.length);
    expect(ssoErrorMessage('?sso_error=account_disabled')).toContain('disabled');
    expect(ssoErrorMessage('?sso_error=<script>')).toBe('Single sign-on failed. Try again.');
    expect(ssoErrorMessage('')).toBeNull();
  });
});
