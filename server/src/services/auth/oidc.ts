import crypto from 'node:crypto';
import type * as Client from 'openid-client';
import type { Role } from '@berth/contract';
import type { OidcConfig } from '../../config';
import type { AppContext } from '../../context';
import type { UserRow, UsersRepo } from '../../db/users-repo';
import { NotFoundError, OidcSignInError, UnauthorizedError, UpstreamError } from '../../errors';
import type { PasswordHasher } from './passwords';
import type { TokenSigner } from './tokens';

/** openid-client, loaded on the first sign-on (not at start: most installs have no provider). */
const openid = () => import('openid-client');

const FLOW_TYPE = 'oidc_flow';
/** Time to sign in at the provider. */
export const FLOW_SECONDS = 10 * 60;
const DISCOVERY_TIMEOUT_MS = 10_000;

/**
 * OpenID Connect sign-in through openid-client: authorization code with PKCE, state and nonce.
 * The verifier, state and nonce ride in a signed, short-lived cookie (see routes), so nothing is
 * kept in memory between the two steps. The callback signs in the account linked to the
 * provider's subject, else creates one whose role comes from the groups claim (admin group →
 * admin, operator group → operator, anyone else → viewer). An existing account with the same
 * email is never taken over by default (its password and TOTP would be skipped): its owner links
 * it from a signed-in session after re-authenticating (a flow that carries `link`), or, only with
 * OIDC_LINK_BY_EMAIL, the sign-on links it, except an account with TOTP on or whose email its
 * owner typed in themselves. A linked account keeps the role an admin gave it.
 */
export class OidcService {
  private discovered: Promise<Client.Configuration> | null = null;

  constructor(
    readonly config: OidcConfig,
    private readonly repo: UsersRepo,
    private readonly passwords: PasswordHasher,
    private readonly signer: TokenSigner,
    private readonly log: AppContext['log'],
  ) {}

  /**
   * The provider's authorization URL and the signed flow token to keep in a cookie until the
   * callback. `link`: the signed-in, re-authenticated user whose account the sign-on links.
   */
  async start(link?: number): Promise<{ url: string; flow: string }> {
    const [config, client] = await Promise.all([this.provider(), openid()]);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.config.redirectUrl,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    const claims = { verifier, state, nonce, ...(link !== undefined ? { link: String(link) } : {}) };
    return { url: url.href, flow: await this.signer.issueShort(FLOW_TYPE, claims, FLOW_SECONDS) };
  }

  /** Finishes the flow from the provider's redirect (its query string); returns the account to sign in. */
  async finish(flowToken: string | undefined, query: string): Promise<{ user: UserRow; linked: boolean }> {
    if (!flowToken)
      throw new OidcSignInError(
        'flow_missing',
        'The single sign-on began in another browser or took too long. Start it again.',
      );
    const flow = await this.signer
      .verifyShort(
        FLOW_TYPE,
        flowToken,
        'The single sign-on took too long. Start it again.',
        'The single sign-on state is invalid. Start it again.',
      )
      .catch((err: unknown) => {
        throw err instanceof UnauthorizedError ? new OidcSignInError('flow_expired', err.message) : err;
      });
    const [config, client] = await Promise.all([this.provider(), openid()]);
    const callback = new URL(this.config.redirectUrl);
    callback.search = query;
    let claims: Client.IDToken | undefined;
    try {
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: String(flow.verifier),
        expectedState: String(flow.state),
        expectedNonce: String(flow.nonce),
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (err) {
      // Mismatched state or nonce, a refused code, a bad signature: the provider's or the library's words.
      const reason = describe(err);
      this.log.warn({ reason }, 'OIDC sign-in refused');
      // An `error` in the provider's redirect (cancelled, consent refused) is its answer, not a failed check.
      throw new OidcSignInError(
        err instanceof client.AuthorizationResponseError ? 'provider_error' : 'refused',
        `Single sign-on failed: ${reason}`,
      );
    }
    if (!claims) throw new OidcSignInError('refused', 'Single sign-on failed: the provider sent no ID token.');
    const link = typeof flow.link === 'string' ? Number(flow.link) : undefined;
    return {
      user: link === undefined ? await this.accountFor(claims) : this.link(claims, link),
      linked: link !== undefined,
    };
  }

  /** Links the provider's account to the signed-in user who started the flow after re-authenticating. */
  private link(claims: Client.IDToken, userId: number): UserRow {
    const subject = `${claims.iss} ${claims.sub}`;
    const holder = this.repo.byOidcSubject(subject);
    if (holder && holder.id !== userId)
      throw new OidcSignInError(
        'already_linked',
        'Single sign-on failed: this provider account is linked to another user.',
      );
    const user = this.repo.byId(userId);
    if (!user) throw new OidcSignInError('refused', 'Single sign-on failed: the account to link no longer exists.');
    this.repo.setOidcSubject(user.id, subject);
    this.log.info({ userId }, 'single sign-on linked to an account by its owner');
    return this.repo.byId(userId)!;
  }

  private async accountFor(claims: Client.IDToken): Promise<UserRow> {
    const subject = `${claims.iss} ${claims.sub}`;
    const linked = this.repo.byOidcSubject(subject);
    if (linked) return linked;
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    if (!email || claims.email_verified !== true) {
      throw new OidcSignInError(
        'email_unverified',
        'Single sign-on failed: the provider did not give a verified email address for this account.',
      );
    }
    const existing = this.repo.byEmail(email);
    if (existing) {
      const refusal = this.linkByEmailRefusal(existing);
      if (refusal) {
        this.log.warn(
          { userId: existing.id, why: refusal },
          'single sign-on refused to link an existing account by email',
        );
        throw new OidcSignInError(
          'link_required',
          'Single sign-on failed: an account with this email exists; its owner signs in with the password and links single sign-on under Account > Security.',
        );
      }
      this.repo.setOidcSubject(existing.id, subject);
      return existing;
    }
    // No password: a random one nobody knows, so only single sign-on (or an admin's reset) opens it.
    const hash = await this.passwords.hash(crypto.randomBytes(32).toString('base64url'));
    const id = this.repo.insert(email, hash, this.roleFrom(claims));
    this.repo.setOidcSubject(id, subject);
    return this.repo.byId(id)!;
  }

  /** Why an existing account may not be linked by its email alone, or null when it may (OIDC_LINK_BY_EMAIL). */
  private linkByEmailRefusal(user: UserRow): string | null {
    if (!this.config.linkByEmail) return 'OIDC_LINK_BY_EMAIL is off';
    // The provider would stand in for the second factor nobody asked.
    if (user.totp_enabled_at !== null) return 'the account has TOTP on';
    // Anyone may type any address into their own account: it proves nothing about who owns it.
    if (user.email_self_set) return 'the email was set by its owner';
    if (user.oidc_subject !== null) return 'the account is linked to another provider account';
    return null;
  }

  private roleFrom(claims: Client.IDToken): Role {
    const value = claims[this.config.groupsClaim];
    const groups = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
    if (this.config.adminGroup && groups.includes(this.config.adminGroup)) return 'admin';
    if (this.config.operatorGroup && groups.includes(this.config.operatorGroup)) return 'operator';
    return 'viewer';
  }

  /** The provider's metadata, fetched once (again after a failure). */
  private provider(): Promise<Client.Configuration> {
    if (!this.discovered) {
      const { issuer, clientId, clientSecret } = this.config;
      const insecure = new URL(issuer).protocol === 'http:';
      this.discovered = openid()
        .then((client) =>
          client.discovery(new URL(issuer), clientId, clientSecret, undefined, {
            timeout: DISCOVERY_TIMEOUT_MS / 1000,
            ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
          }),
        )
        .catch((err: unknown) => {
          this.discovered = null;
          throw new UpstreamError(`Could not reach the single sign-on provider ${issuer}: ${(err as Error).message}`);
        });
    }
    return this.discovered;
  }
}

/** The library's message and that of its cause (e.g. which check failed: state, nonce, PKCE). */
function describe(err: unknown): string {
  const { message, cause } = err as Error;
  return cause instanceof Error && cause.message !== message ? `${message} (${cause.message})` : message;
}

/** For routes: the provider when configured, else a 404 naming why. */
export function requireOidc(oidc: OidcService | null): OidcService {
  if (!oidc) throw new NotFoundError('sign-in method', 'OpenID Connect is not configured (OIDC_ISSUER)');
  return oidc;
}
