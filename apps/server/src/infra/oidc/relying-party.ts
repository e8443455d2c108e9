import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import * as oidc from 'openid-client';

export interface RelyingPartyOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
  scopes: string;
  /** Plain http is allowed only for the embedded provider and providers on this machine. */
  allowHttp: boolean;
  /** Seconds to add to this machine's clock when checking token times (for a clock known to be off). */
  clockSkewSeconds: number;
  /** The claim (ID token or userinfo) listing the person's groups by name, when groups are kept in step with the provider. */
  groupsClaim?: string | undefined;
}

export interface SignInStart {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** What the person asked for on Cabinet's side, passed on to the provider's pages. */
export interface SignInWish {
  /** Open the provider's sign-up form rather than its sign-in form. */
  signUp?: boolean;
  /** The address to fill in (OpenID Connect's `login_hint`), already checked to be an email address. */
  loginHint?: string | undefined;
  /** Sign in afresh (`prompt=login`), not with the provider's current session: after a sign-in without a required second step. */
  fresh?: boolean;
}

export interface SignInChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface ProviderIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
  picture: string | undefined;
  idToken: string | undefined;
  refreshToken: string | undefined;
  /** The provider's session this sign-in belongs to (the ID token's `sid`), when it sends one. */
  sessionId?: string | undefined;
  /** The group names of the configured groups claim; undefined when none is configured or the provider did not send it. */
  groups?: string[] | undefined;
  /** How the person signed in, as the ID token says (`amr`, RFC 8176; `acr`), when it says. */
  amr?: string[] | undefined;
  acr?: string | undefined;
}

/** What a valid logout token asks: end the provider's session `sid`, or every session of `sub`, or both. */
export interface LogoutRequest {
  issuer: string;
  subject: string | undefined;
  sessionId?: string | undefined;
  jti: string;
  /** When the token is too old to be taken anyway: until then its `jti` must be remembered. */
  acceptedUntil: Date;
}

/** A logout token that is not one, or not for Cabinet: the answer is 400 with this as its description. */
export class LogoutTokenRefused extends Error {}

const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** How old (by its `iat`) a logout token may be; tokens are sent as the session ends, so minutes are plenty. */
export const LOGOUT_TOKEN_MAX_AGE_SECONDS = 300;
/** Signature algorithms a logout token may use: the provider's keys from its JWKS, never a shared secret or none. */
const LOGOUT_TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

/**
 * The group names a claim carries: an array of strings (blank ones and anything else dropped), or
 * one string. Undefined when the claim is absent or of another shape: then nothing is changed.
 */
export function groupsFromClaims(profile: Record<string, unknown>, claim: string | undefined): string[] | undefined {
  if (!claim) return undefined;
  const value = profile[claim];
  if (typeof value === 'string') return value.trim() ? [value.trim()] : [];
  if (!Array.isArray(value)) return undefined;
  return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
}

/**
 * Cabinet as an OpenID Connect relying party (backend-for-frontend): authorization code
 * with PKCE, state and nonce; the tokens stay on the server.
 */
export class RelyingParty {
  private config: Promise<oidc.Configuration> | undefined;
  private keys: JWTVerifyGetKey | undefined;

  constructor(private readonly options: RelyingPartyOptions) {}

  get issuer() {
    return this.options.issuer;
  }

  /** Discovery over HTTP, once; a failure is retried on the next sign-in rather than cached. */
  configuration(): Promise<oidc.Configuration> {
    this.config ??= oidc
      .discovery(
        new URL(this.options.issuer),
        this.options.clientId,
        { client_secret: this.options.clientSecret, [oidc.clockSkew]: this.options.clockSkewSeconds },
        undefined,
        {
          ...(this.options.allowHttp ? { execute: [oidc.allowInsecureRequests] } : {}),
          timeout: 10,
        },
      )
      .catch((error: unknown) => {
        this.config = undefined;
        throw error;
      });
    return this.config;
  }

  async start(wish: SignInWish = {}): Promise<SignInStart> {
    const config = await this.configuration();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.options.redirectUri,
      scope: this.options.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      // `screen` is the embedded provider's own parameter (oidc-provider 9 has no `prompt=create`); a provider that does
      // not know it ignores it, as OAuth servers must, and shows its usual page.
      ...(wish.signUp ? { screen: 'signup' } : {}),
      ...(wish.loginHint ? { login_hint: wish.loginHint } : {}),
      ...(wish.fresh ? { prompt: 'login' } : {}),
    });
    return { url: url.href, state, nonce, codeVerifier };
  }

  /** Exchanges the code and validates the ID token (issuer, audience, expiry, nonce); throws on any mismatch. */
  async finish(callbackUrl: URL, checks: SignInChecks): Promise<ProviderIdentity> {
    const config = await this.configuration();
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    let profile: Record<string, unknown> = claims;
    const wantsGroups = !!this.options.groupsClaim && !(this.options.groupsClaim in claims);
    if ((!claims.email || !claims.name || wantsGroups) && tokens.access_token) {
      profile = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
    }
    const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
    return {
      issuer: claims.iss,
      subject: claims.sub,
      email: str(profile.email),
      emailVerified: profile.email_verified === true,
      name: str(profile.name) ?? str([profile.given_name, profile.family_name].filter(Boolean).join(' ')) ?? str(profile.preferred_username),
      picture: str(profile.picture),
      idToken: tokens.id_token,
      refreshToken: tokens.refresh_token,
      sessionId: typeof claims.sid === 'string' && claims.sid ? claims.sid : undefined,
      groups: groupsFromClaims(profile, this.options.groupsClaim),
      amr: Array.isArray(claims.amr) ? claims.amr.filter((m): m is string => typeof m === 'string') : undefined,
      acr: typeof claims.acr === 'string' ? claims.acr : undefined,
    };
  }

  /** Where to send the browser to end the provider's session too, when the provider supports it. */
  async signOutUrl(idToken: string | undefined): Promise<string | undefined> {
    const config = await this.configuration();
    if (!config.serverMetadata().end_session_endpoint) return undefined;
    return oidc.buildEndSessionUrl(config, {
      post_logout_redirect_uri: this.options.postLogoutRedirectUri,
      client_id: this.options.clientId,
      ...(idToken ? { id_token_hint: idToken } : {}),
    }).href;
  }

  /**
   * Checks a back-channel logout token (OpenID Connect Back-Channel Logout 1.0, §2.6): signed by a key of the provider's
   * JWKS, issued by the provider for this client, recent, with the logout event, a `sid` or a `sub`, and no `nonce`.
   * Throws `LogoutTokenRefused` for any token that is not one; the replay of a `jti` is for the caller to refuse.
   */
  async verifyLogoutToken(token: string): Promise<LogoutRequest> {
    const config = await this.configuration();
    const metadata = config.serverMetadata();
    if (!metadata.jwks_uri) throw new LogoutTokenRefused('the provider publishes no keys');
    this.keys ??= createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: 10_000 });
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.keys, {
        issuer: metadata.issuer,
        audience: this.options.clientId,
        algorithms: LOGOUT_TOKEN_ALGORITHMS,
        requiredClaims: ['iat', 'jti'],
        maxTokenAge: LOGOUT_TOKEN_MAX_AGE_SECONDS,
        clockTolerance: 60,
        currentDate: new Date(Date.now() + this.options.clockSkewSeconds * 1000),
      }));
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) throw new LogoutTokenRefused(`the logout token is not valid (${error.code})`);
      throw new LogoutTokenRefused('the logout token could not be read');
    }
    const events = payload.events;
    const event = events && typeof events === 'object' ? (events as Record<string, unknown>)[BACKCHANNEL_LOGOUT_EVENT] : undefined;
    if (!event || typeof event !== 'object' || Array.isArray(event)) throw new LogoutTokenRefused('the logout token carries no logout event');
    if ('nonce' in payload) throw new LogoutTokenRefused('a logout token must not carry a nonce');
    const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
    const subject = text(payload.sub);
    const sessionId = text(payload.sid);
    if (!subject && !sessionId) throw new LogoutTokenRefused('the logout token names neither a session nor a subject');
    const jti = text(payload.jti);
    if (!jti || jti.length > 256) throw new LogoutTokenRefused('the logout token has no usable jti');
    return {
      issuer: payload.iss!,
      subject,
      sessionId,
      jti,
      acceptedUntil: new Date((payload.iat! + LOGOUT_TOKEN_MAX_AGE_SECONDS + 60) * 1000 - this.options.clockSkewSeconds * 1000),
    };
  }
}
