import { OIDC_ERROR_PARAM, OIDC_ERRORS, type OidcError } from '@berth/contract';

/** What the login page says when the server sent a single sign-on back with a code. */
const SSO_MESSAGES: Record<OidcError, string> = {
  provider_error: 'The sign-in provider did not sign you in (it was cancelled or refused there). Try again.',
  refused: "The sign-in provider's answer did not pass Berth's checks. Start the sign-in again.",
  flow_missing: 'The sign-in began in another browser or tab, or this browser blocks its cookie. Start it again here.',
  flow_expired: 'The sign-in took too long. Start it again.',
  email_unverified:
    'The sign-in provider gave no verified email address for your account. Verify it there, or ask an admin.',
  account_disabled: 'Your Berth account is disabled. Ask an admin to enable it.',
  provider_unreachable: 'The sign-in provider cannot be reached. Try again later.',
  link_required:
    'A Berth account with this email already exists. Sign in with its password, then link single sign-on under Account > Security.',
  already_linked: 'This sign-in provider account is already linked to another Berth account.',
};

const isOidcError = (code: string): code is OidcError => (OIDC_ERRORS as readonly string[]).includes(code);

/** The human message for the code in the address (an unknown code still says that sign-on failed), or null. */
export function ssoErrorMessage(search: string): string | null {
  const code = new URLSearchParams(search).get(OIDC_ERROR_PARAM);
  if (code === null) return null;
  return isOidcError(code) ? SSO_MESSAGES[code] : 'Single sign-on failed. Try again.';
}

/** Reads the code once and drops it from the address, so a reload or bookmark does not show it again. */
export function takeSsoError(): string | null {
  const message = ssoErrorMessage(window.location.search);
  if (message !== null) {
    const url = new URL(window.location.href);
    url.searchParams.delete(OIDC_ERROR_PARAM);
    window.history.replaceState(window.history.state, '', url);
  }
  return message;
}
