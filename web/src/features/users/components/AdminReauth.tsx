import { TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PasswordField } from '../../../components/PasswordField';
import { authStatusQuery } from '../../account';

/** What the server asks to confirm a change to accounts (see AdminReauth in the contract). */
export interface AdminReauth {
  current_password: string;
  totp_code?: string;
}

/**
 * The acting admin's confirmation of a change to accounts: their current password and, when
 * their own TOTP is on, a code from the app (or a recovery code). `fields` go into the dialog.
 */
export function useAdminReauth() {
  const status = useQuery(authStatusQuery());
  const totp = status.data?.totp_enabled === true;
  // Without accounts (DISABLE_AUTH) there is no password to confirm with; the server asks none.
  const none = status.data?.authDisabled === true;
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const value: AdminReauth = { current_password: password, ...(totp && code.trim() ? { totp_code: code.trim() } : {}) };
  return {
    value,
    complete: none || (password !== '' && (!totp || code.trim() !== '')),
    reset: () => {
      setPassword('');
      setCode('');
    },
    fields: none ? null : (
      <>
        <PasswordField
          label="Your current password"
          description="Changes to accounts are confirmed with your own password."
          required
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        {totp && (
          <TextInput
            label="Your TOTP code"
            description="From your authenticator app, or a recovery code."
            required
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
          />
        )}
      </>
    ),
  };
}
