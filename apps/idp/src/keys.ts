import { createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { SqlClient } from './sql.ts';

// Keys made in this process. Each is generated as DER and read back into key objects of its own before anything is
// exported from it: on Node 20, exporting (as a JWK) the very key object a generation made can hang the process for
// good, when the garbage collector frees the generation's job in the middle of the export (the job's end waits on a
// lock the export holds). A test run's server hung so, its thread blocked and nothing answered.

/** A new RSA private key (2048 bits), as a JWK. */
export function newRsaJwk(): JsonWebKey {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'der' },
  });
  return createPrivateKey({ key: privateKey, format: 'der', type: 'pkcs8' }).export({ format: 'jwk' });
}

/** A new P-256 key pair, as key objects safe to export (a passkey's, in the tests' authenticator). */
export function newEcKeyPair(): { privateKey: KeyObject; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'der' },
  });
  return {
    privateKey: createPrivateKey({ key: privateKey, format: 'der', type: 'pkcs8' }),
    publicKey: createPublicKey({ key: publicKey, format: 'der', type: 'spki' }),
  };
}

/**
 * The signing key, made once and kept in the database, so tokens stay valid across restarts and instances. The tests'
 * template database is given one this way, as a first start would: a 2,048-bit RSA key costs a few hundred ms of CPU.
 */
export async function ensureSigningKey(sql: SqlClient): Promise<Record<string, unknown>> {
  const existing = await sql.query<{ jwk: Record<string, unknown> }>(`SELECT jwk FROM idp_keys WHERE kid = 'primary'`);
  if (existing[0]) return existing[0].jwk;
  const jwk = { ...newRsaJwk(), kid: `k${Date.now().toString(36)}`, use: 'sig', alg: 'RS256' };
  await sql.query(`INSERT INTO idp_keys (kid, jwk) VALUES ('primary', $1) ON CONFLICT DO NOTHING`, [JSON.stringify(jwk)]);
  return (await sql.query<{ jwk: Record<string, unknown> }>(`SELECT jwk FROM idp_keys WHERE kid = 'primary'`))[0]!.jwk;
}
