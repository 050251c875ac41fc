import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { SessionsCard, SsoLinkCard, TotpCard, authStatusQuery } from '../../features/account';

/** /user/security: two-factor sign-in, linking single sign-on (when configured) and the account's sessions. */
export default function UserSecurityPage() {
  const status = useQuery(authStatusQuery());
  return (
    <Stack>
      <TotpCard enabled={status.data?.totp_enabled === true} onChange={() => void status.refetch()} />
      {status.data?.oidc_name && (
        <SsoLinkCard
          name={status.data.oidc_name}
          linked={status.data.oidc_linked === true}
          totp={status.data.totp_enabled === true}
        />
      )}
      <SessionsCard />
    </Stack>
  );
}
