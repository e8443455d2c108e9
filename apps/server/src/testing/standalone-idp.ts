import { rateKey } from '../lib/client-address.ts';
import Fastify, { type FastifyInstance } from 'fastify';
import { idpPlugin, type SqlClient } from '@cabinet/idp';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from './test-database.ts';
import { afterAll } from 'vitest';
import { freePort, useTestApp } from './test-app.ts';

export interface StandaloneIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Its own database (accounts, second factors), for a test to set up what a person would at the provider. */
  sql: SqlClient;
  /** The key its authenticator apps' secrets are sealed with. */
  twoStepKey: Buffer;
  /** The provider's private signing key (a JWK), to sign tokens as the provider would. */
  signingKey(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * The identity provider as its own server on another port with its own database, as a
 * hosted provider (Auth0, Keycloak…) would be: Cabinet reaches it only through discovery over HTTP.
 */
export async function startStandaloneIdp(cabinetUrl: string, options: { issuerHost?: string } = {}): Promise<StandaloneIdp> {
  const port = await freePort();
  const issuer = `http://${options.issuerHost ?? '127.0.0.1'}:${port}/idp`;
  const db: TestDatabase = await createTestDatabase();
  const outboxDir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-idp-'));
  const app: FastifyInstance = Fastify();
  const clientId = 'cabinet-hosted';
  const clientSecret = 'a-client-secret-of-the-hosted-provider';
  const twoStepKey = Buffer.alloc(32, 7);
  await app.register(idpPlugin, {
    issuer,
    sql: db.database.sql,
    secret: 'standalone-provider-cookie-secret',
    twoStepKey,
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${cabinetUrl}/auth/callback`],
        post_logout_redirect_uris: [`${cabinetUrl}/signin`],
        backchannel_logout_uri: `${cabinetUrl}/auth/backchannel-logout`,
        backchannel_logout_session_required: true,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    passwordPolicy: { minLength: 12, maxLength: 128, require: [] },
    lockout: { failures: 5, minutes: 15 },
    signInAttemptsPerMinute: 100,
    rateKey,
    mail: { from: 'idp@example.com', outboxDir },
    devOutboxPage: false,
    trustProxy: false,
    callLoopbackClients: true,
    homeUrl: cabinetUrl,
  });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    issuer,
    clientId,
    clientSecret,
    sql: db.database.sql,
    twoStepKey,
    async signingKey() {
      const rows = await db.database.sql.query<{ jwk: Record<string, unknown> }>(`SELECT jwk FROM idp_keys WHERE kid = 'primary'`);
      return rows[0]!.jwk;
    },
    async close() {
      await app.close();
      await db.drop();
      rmSync(outboxDir, { recursive: true, force: true });
    },
  };
}

/**
 * A test app whose people sign in through a standalone provider on another port, and the provider (filled in once the
 * app starts). `settings` add to the app's. The provider closes after the app: its hook is registered before the app's,
 * and hooks after the tests run in reverse.
 */
export function useTestAppWithProvider(settings: Record<string, string> = {}): { test: ReturnType<typeof useTestApp>; idp: StandaloneIdp } {
  const idp = {} as StandaloneIdp;
  afterAll(async () => {
    await idp.close?.();
  });
  const test = useTestApp(async () => {
    const port = await freePort();
    Object.assign(idp, await startStandaloneIdp(`http://127.0.0.1:${port}`));
    return { PORT: String(port), OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret, ...settings };
  });
  return { test, idp };
}
