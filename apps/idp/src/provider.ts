import Provider, { interactionPolicy, type ClientMetadata, type KoaContextWithOIDC } from 'oidc-provider';
import type { AccountStore } from './accounts.ts';
import { sqlAdapter } from './adapter.ts';
import { ensureSigningKey } from './keys.ts';
import { logoutPage, messagePage } from './pages.ts';
import type { SqlClient } from './sql.ts';

export interface ProviderOptions {
  issuer: string;
  sql: SqlClient;
  accounts: AccountStore;
  clients: ClientMetadata[];
  cookieKeys: string[];
  trustProxy: boolean;
  /** Every sign-in ends with a second step: a provider session without one asks again. */
  requireTwoStep: boolean;
  callLoopbackClients: boolean;
}

/** What the provider's sign-ins report as a second factor: an app's code, or a passkey (which its device unlocked). */
const SECOND_FACTORS = ['otp', 'hwk', 'swk'];

/** The provider's prompts, with one more reason to ask for a sign-in: two steps are required and the session had one. */
export function prompts(requireTwoStep: boolean) {
  const policy = interactionPolicy.base();
  if (requireTwoStep) {
    policy
      .get('login')!
      .checks.add(
        new interactionPolicy.Check('two_step_required', 'two-step sign-in is required', (ctx) =>
          ctx.oidc.session?.accountId && !SECOND_FACTORS.some((m) => ctx.oidc.session!.amr?.includes(m))
            ? interactionPolicy.Check.REQUEST_PROMPT
            : interactionPolicy.Check.NO_NEED_TO_PROMPT,
        ),
      );
  }
  return policy;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export async function createProvider(options: ProviderOptions): Promise<Provider> {
  const mountPath = new URL(options.issuer).pathname.replace(/\/$/, '');
  const jwk = await ensureSigningKey(options.sql);
  const provider = new Provider(options.issuer, {
    adapter: sqlAdapter(options.sql),
    clients: options.clients,
    jwks: { keys: [jwk as never] },
    cookies: { keys: options.cookieKeys },
    pkce: { required: () => true },
    // `amr` says how the person signed in (`pwd`, and `otp` after a second step): Cabinet reads it where two steps are required.
    // A claim alone (`amr: null`) is released only when a client asks for it by name; under `openid` every ID token carries it.
    claims: { openid: ['sub', 'amr'], email: ['email', 'email_verified'], profile: ['name'] },
    // Cabinet reads email and name from the ID token, so put the granted claims there.
    conformIdTokenClaims: false,
    scopes: ['openid', 'email', 'profile', 'offline_access'],
    // `screen=signup` asks for the sign-up form first (Cabinet's "Create an account"): oidc-provider 9 has no `prompt=create`.
    extraParams: ['screen'],
    async findAccount(_ctx, id) {
      const account = await options.accounts.findById(id);
      if (!account) return undefined;
      return {
        accountId: account.id,
        claims: async () => ({ sub: account.id, email: account.email, email_verified: account.email_verified, name: account.name }),
      };
    },
    interactions: { url: (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}`, policy: prompts(options.requireTwoStep) },
    // Cabinet's own clients are first-party: no consent screen, the grant covers what they ask for.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { oidc } = ctx;
      if (!oidc.client || !oidc.session?.accountId) return undefined;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session.grantIdFor(oidc.client.clientId);
      if (grantId) {
        const grant = await oidc.provider.Grant.find(grantId);
        if (grant) return grant;
      }
      const grant = new oidc.provider.Grant({ clientId: oidc.client.clientId, accountId: oidc.session.accountId });
      grant.addOIDCScope(oidc.params?.scope ? String(oidc.params.scope) : 'openid email profile');
      await grant.save();
      return grant;
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      // A client that registers a `backchannel_logout_uri` is told, with a signed logout token, when a person's session
      // here ends (OpenID Connect Back-Channel Logout 1.0); Cabinet's own client needs none, as it signs out first.
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource(ctx, form) {
          ctx.type = 'html';
          ctx.body = logoutPage(form);
        },
        postLogoutSuccessSource(ctx) {
          ctx.type = 'html';
          ctx.body = messagePage('Signed out', 'You have signed out.');
        },
      },
    },
    renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = messagePage('Sign-in problem', `${out.error_description ?? out.error}. Go back to Cabinet and try signing in again.`);
    },
    // oidc-provider refuses to connect to special-use addresses (its guard against request forgery); a client on this
    // machine is reached without that guard only when the operator of a one-machine setup asked for it.
    ...(options.callLoopbackClients
      ? {
          fetch: (url: URL | string | Request, init?: RequestInit & { dispatcher?: unknown }) => {
            const target = url instanceof Request ? url.url : url;
            if (init && LOOPBACK_HOSTS.has(new URL(target).hostname)) delete init.dispatcher;
            return fetch(url, init);
          },
        }
      : {}),
    ttl: {
      Session: 14 * 24 * 3600,
      Interaction: 3600,
      Grant: 14 * 24 * 3600,
      IdToken: 3600,
      AccessToken: 3600,
      AuthorizationCode: 60,
      RefreshToken: 14 * 24 * 3600,
    },
  });
  provider.proxy = options.trustProxy;
  return provider;
}
