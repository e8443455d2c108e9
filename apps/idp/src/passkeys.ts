import { randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { SqlClient } from './sql.ts';

/** How long a challenge waits for the browser's answer: as long as a sign-in waits for its second step. */
const CHALLENGE_MINUTES = 10;
const TIMEOUT_MS = 120_000;
/** How many passkeys an account may have: enough for every device and a spare key or two. */
export const PASSKEY_LIMIT = 20;
const isAccountId = (id: string) => /^[0-9a-f-]{36}$/i.test(id);
/** The ways a browser may reach a passkey (WebAuthn's AuthenticatorTransport): anything else it reports is not kept. */
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);
const knownTransports = (reported: unknown): string[] =>
  Array.isArray(reported) ? [...new Set(reported.filter((t): t is string => typeof t === 'string' && TRANSPORTS.has(t)))] : [];

/** Where passkeys are made and used: the browser's origin of Cabinet's public address, and its host name (the relying party). */
export interface RelyingParty {
  origin: string;
  id: string;
}

/** The relying party of a public address (its origin, and its host name as the passkeys' scope). */
export const relyingPartyOf = (publicUrl: string): RelyingParty => {
  const url = new URL(publicUrl);
  return { origin: url.origin, id: url.hostname };
};

export interface Passkey {
  id: string;
  name: string;
  /** Copied to the person's other devices by their password manager or platform (a synced passkey). */
  synced: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

interface PasskeyRow {
  id: string;
  account_id: string;
  credential_id: string;
  public_key: string;
  counter: string | number;
  transports: string[];
  multi_device: boolean;
  backed_up: boolean;
  name: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
}

const iso = (d: Date | string) => new Date(d).toISOString();
const summary = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  synced: row.multi_device,
  createdAt: iso(row.created_at),
  lastUsedAt: row.last_used_at ? iso(row.last_used_at) : null,
});

/**
 * What a passkey proved, as RFC 8176 names it: a key kept on one device's hardware (`hwk`), or one its password manager
 * copies between devices (`swk`). The device checked its owner too (a PIN, a fingerprint, a face): user verification is
 * always asked for.
 */
export type PasskeyMethod = 'hwk' | 'swk';

/** A passkey sign-in that passed: whose account, and how the ID token should say it was proved. */
export interface PasskeySignIn {
  accountId: string;
  method: PasskeyMethod;
}

/**
 * An account's passkeys (WebAuthn): added from Account → Security, used on the provider's sign-in page alone (no password)
 * or as the second step after one. Every challenge is made for one purpose (adding a passkey to an account, one sign-in),
 * kept for minutes, and taken once, whatever the answer; the answer must come from Cabinet's own origin.
 */
export class PasskeyStore {
  constructor(
    private readonly sql: SqlClient,
    private readonly rp: RelyingParty,
  ) {}

  private async rows(accountId: string): Promise<PasskeyRow[]> {
    if (!isAccountId(accountId)) return [];
    return this.sql.query<PasskeyRow>(`SELECT * FROM idp_passkeys WHERE account_id = $1 ORDER BY created_at, id`, [accountId]);
  }

  async list(accountId: string): Promise<Passkey[]> {
    return (await this.rows(accountId)).map(summary);
  }

  async count(accountId: string): Promise<number> {
    if (!isAccountId(accountId)) return 0;
    return (await this.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM idp_passkeys WHERE account_id = $1`, [accountId]))[0]!.n;
  }

  private async keepChallenge(key: string, challenge: string): Promise<void> {
    await this.sql.query(
      `WITH stale AS (DELETE FROM idp_passkey_challenges WHERE expires_at < now())
       INSERT INTO idp_passkey_challenges (key, challenge, expires_at) VALUES ($1, $2, now() + make_interval(mins => $3))
       ON CONFLICT (key) DO UPDATE SET challenge = EXCLUDED.challenge, expires_at = EXCLUDED.expires_at`,
      [key, challenge, CHALLENGE_MINUTES],
    );
  }

  /** The challenge made for this purpose, taken: a second answer to it finds none. */
  private async takeChallenge(key: string): Promise<string | undefined> {
    const rows = await this.sql.query<{ challenge: string }>(`DELETE FROM idp_passkey_challenges WHERE key = $1 AND expires_at > now() RETURNING challenge`, [
      key,
    ]);
    return rows[0]?.challenge;
  }

  /**
   * What the browser needs to make a passkey for the account: a discoverable key (it signs in without the address typed),
   * the device checking its owner, none of the account's keys made again on the same device.
   */
  async registrationOptions(account: { id: string; email: string; name: string }): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.rows(account.id);
    const options = await generateRegistrationOptions({
      rpName: 'Cabinet',
      rpID: this.rp.id,
      userName: account.email,
      userDisplayName: account.name,
      userID: Buffer.from(account.id.replace(/-/g, ''), 'hex'),
      timeout: TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((r) => ({ id: r.credential_id, transports: r.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await this.keepChallenge(`add:${account.id}`, options.challenge);
    return options;
  }

  /**
   * Keeps the passkey the browser made from the account's last options, when its answer checks out (this origin, the
   * challenge, the device's check of its owner); undefined when it does not, or the account has as many as it may.
   */
  async register(accountId: string, response: RegistrationResponseJSON, name: string): Promise<Passkey | undefined> {
    const challenge = await this.takeChallenge(`add:${accountId}`);
    if (!challenge) return undefined;
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        requireUserVerification: true,
      });
    } catch {
      return undefined;
    }
    if (!verified.verified) return undefined;
    const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
    const rows = await this.sql.query<PasskeyRow>(
      `INSERT INTO idp_passkeys (id, account_id, credential_id, public_key, counter, transports, multi_device, backed_up, name)
       SELECT $1, $2, $3, $4, $5::bigint, $6::text[], $7, $8, $9
       WHERE (SELECT count(*) FROM idp_passkeys WHERE account_id = $2) < $10
       ON CONFLICT (credential_id) DO NOTHING
       RETURNING *`,
      [
        randomUUID(),
        accountId,
        credential.id,
        Buffer.from(credential.publicKey).toString('base64url'),
        credential.counter,
        knownTransports(credential.transports),
        credentialDeviceType === 'multiDevice',
        credentialBackedUp,
        name,
        PASSKEY_LIMIT,
      ],
    );
    return rows[0] && summary(rows[0]);
  }

  async rename(accountId: string, id: string, name: string): Promise<Passkey | undefined> {
    if (!isAccountId(accountId) || !isAccountId(id)) return undefined;
    const rows = await this.sql.query<PasskeyRow>(`UPDATE idp_passkeys SET name = $3 WHERE account_id = $1 AND id = $2 RETURNING *`, [accountId, id, name]);
    return rows[0] && summary(rows[0]);
  }

  /** Removes one of the account's passkeys: the one removed, or undefined when the account has none by that id. */
  async remove(accountId: string, id: string): Promise<Passkey | undefined> {
    if (!isAccountId(accountId) || !isAccountId(id)) return undefined;
    const rows = await this.sql.query<PasskeyRow>(`DELETE FROM idp_passkeys WHERE account_id = $1 AND id = $2 RETURNING *`, [accountId, id]);
    return rows[0] && summary(rows[0]);
  }

  /** Removes every passkey of the account (an administrator's reset); how many there were. */
  async removeAll(accountId: string): Promise<number> {
    if (!isAccountId(accountId)) return 0;
    return (await this.sql.query(`DELETE FROM idp_passkeys WHERE account_id = $1 RETURNING id`, [accountId])).length;
  }

  /**
   * A challenge for one sign-in: any of the site's passkeys (the browser offers those it has), or, given the account whose
   * password was right, one of that account's; undefined (and no challenge kept) when that account has none.
   */
  async signInOptions(interactionUid: string, accountId?: string): Promise<PublicKeyCredentialRequestOptionsJSON | undefined> {
    const allow = accountId ? (await this.rows(accountId)).map((r) => ({ id: r.credential_id, transports: r.transports })) : undefined;
    if (allow && !allow.length) return undefined;
    const options = await generateAuthenticationOptions({
      rpID: this.rp.id,
      timeout: TIMEOUT_MS,
      userVerification: 'required',
      ...(allow ? { allowCredentials: allow } : {}),
    });
    await this.keepChallenge(`sign-in:${interactionUid}`, options.challenge);
    return options;
  }

  /**
   * Checks the browser's answer to this sign-in's challenge (taken whatever the outcome): a passkey kept here, of the
   * given account when one is given, signed over this origin and the challenge, its owner checked by the device, its
   * counter moving forward when the device keeps one. Undefined when any of it fails.
   */
  async signIn(interactionUid: string, response: AuthenticationResponseJSON, accountId?: string): Promise<PasskeySignIn | undefined> {
    const challenge = await this.takeChallenge(`sign-in:${interactionUid}`);
    if (!challenge || typeof response?.id !== 'string') return undefined;
    const row = (await this.sql.query<PasskeyRow>(`SELECT * FROM idp_passkeys WHERE credential_id = $1`, [response.id]))[0];
    if (!row || (accountId && row.account_id !== accountId)) return undefined;
    let verified;
    try {
      verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        credential: {
          id: row.credential_id,
          publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
          counter: Number(row.counter),
          transports: row.transports as AuthenticatorTransport[],
        },
        requireUserVerification: true,
      });
    } catch {
      return undefined;
    }
    if (!verified.verified) return undefined;
    const info = verified.authenticationInfo;
    // A device that counts its signatures must count up: the same count again is a copied key, and is refused.
    const kept = await this.sql.query(
      `UPDATE idp_passkeys SET counter = $2::bigint, backed_up = $3, last_used_at = now()
       WHERE id = $1 AND ($2::bigint = 0 OR counter < $2::bigint) RETURNING id`,
      [row.id, info.newCounter, info.credentialBackedUp],
    );
    if (!kept.length) return undefined;
    return { accountId: row.account_id, method: row.multi_device ? 'swk' : 'hwk' };
  }
}
