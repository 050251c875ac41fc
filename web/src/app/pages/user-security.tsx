import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { SessionsCard, TotpCard, authStatusQuery } from '../../features/account';

/** /user/security: two-factor sign-in and the account's sessions. */
export default function UserSecurityPage() {
  const status = useQuery(authStatusQuery());
  return (
    <Stack>
      <TotpCard enabled={status.data?.totp_enabled === true} onChange={() => void status.refetch()} />
      <SessionsCard />
    </Stack>
  );
}
