import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { renderSVG } from 'uqr';
import type { SqlClient } from './sql.ts';

/** How many recovery codes a person is given, each good once. */
export const RECOVERY_CODE_COUNT = 10;
const PERIOD_SECONDS = 30;
/** How long a sign-in waits for its code once the password was right. */
const SECOND_STEP_MINUTES = 10;
const isAccountId = (id: string) => /^[0-9a-f-]{36}$/i.test(id);

/** An authenticator app's parameters: the ones every app reads (SHA-1, six digits, thirty seconds). */
const totpOf = (secret: string, label = '') =>
  new TOTP({ issuer: 'Cabinet', label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS });

/** What a person types at the second step: six digits from the app, or a recovery code. */
export type SecondFactorInput = { kind: 'totp'; code: string } | { kind: 'recovery'; code: string } | { kind: 'none' };

/** Spaces and dashes are typing aids; six digits are an app's code, anything else of the right length a recovery code. */
export function readSecondFactor(input: string): SecondFactorInput {
  const compact = input.replace(/[\s-]/g, '').toLowerCase();
  if (/^\d{6}$/.test(compact)) return { kind: 'totp', code: compact };
  if (/^[a-z0-9]{10}$/.test(compact)) return { kind: 'recovery', code: compact };
  return { kind: 'none' };
}

// No 0/o, 1/l/i: a code copied onto paper reads back the same.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code as shown: two groups of five. */
export function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]!).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** A recovery code's hash, of its compact form (no dash). The codes are random enough that a plain hash keeps them. */
const codeHash = (compact: string) => createHash('sha256').update(compact).digest('hex');

/**
 * The time step a code belongs to, within one step either side of `now` (an app's clock a little off),
 * or undefined when it matches none of them.
 */
export function totpStep(secret: string, code: string, now = Date.now()): number | undefined {
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? undefined : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

/** The code an app shows for a secret at a time (tests and the command line use it). */
export const totpCode = (secret: string, now = Date.now()) => totpOf(secret).generate({ timestamp: now });

export interface TwoStepStatus {
  /** An authenticator app is set up and confirmed. */
  totp: boolean;
  recoveryCodesLeft: number;
}

export interface TotpSetUp {
  /** The secret in base32, for typing into an app that cannot scan. */
  secret: string;
  /** The `otpauth://` address the QR code holds. */
  uri: string;
  /** The QR code, as SVG markup. */
  qrSvg: string;
}

/**
 * An account's second factors: an authenticator app (TOTP) and its recovery codes. The app's secret is
 * sealed with the instance's key (AES-256-GCM) and never shown again once confirmed; recovery codes are
 * kept as hashes. Shared by the provider's sign-in pages and the host's Account → Security calls.
 */
export class TwoStepStore {
  constructor(
    private readonly sql: SqlClient,
    private readonly key: Buffer,
  ) {}

  private seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
  }

  private open(sealed: string): string {
    const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv!);
    decipher.setAuthTag(tag!);
    return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8');
  }

  async status(accountId: string): Promise<TwoStepStatus> {
    if (!isAccountId(accountId)) return { totp: false, recoveryCodesLeft: 0 };
    const rows = await this.sql.query<{ totp: boolean; left: number }>(
      `SELECT EXISTS (SELECT 1 FROM idp_totp WHERE account_id = $1 AND confirmed_at IS NOT NULL) AS totp,
              (SELECT count(*)::int FROM idp_recovery_codes WHERE account_id = $1 AND used_at IS NULL) AS left`,
      [accountId],
    );
    return { totp: rows[0]!.totp, recoveryCodesLeft: rows[0]!.left };
  }

  /**
   * A new secret to set up, replacing one not yet confirmed; undefined when an app is already set up
   * (it is removed first, so a session alone never swaps the factor quietly).
   */
  async beginTotp(accountId: string, label: string): Promise<TotpSetUp | undefined> {
    const secret = new Secret({ size: 20 }).base32;
    const rows = await this.sql.query(
      `INSERT INTO idp_totp (account_id, secret_sealed) VALUES ($1, $2)
       ON CONFLICT (account_id) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed, last_step = NULL, created_at = now()
       WHERE idp_totp.confirmed_at IS NULL
       RETURNING account_id`,
      [accountId, this.seal(secret)],
    );
    if (!rows.length) return undefined;
    const uri = totpOf(secret, label).toString();
    return { secret, uri, qrSvg: renderSVG(uri, { border: 2, pixelSize: 6 }) };
  }

  /** The app being set up (not yet confirmed), its secret shown again; undefined when none is. */
  async pendingTotp(accountId: string, label: string): Promise<TotpSetUp | undefined> {
    const row = (
      await this.sql.query<{ secret_sealed: string }>(`SELECT secret_sealed FROM idp_totp WHERE account_id = $1 AND confirmed_at IS NULL`, [accountId])
    )[0];
    if (!row) return undefined;
    const secret = this.open(row.secret_sealed);
    const uri = totpOf(secret, label).toString();
    return { secret, uri, qrSvg: renderSVG(uri, { border: 2, pixelSize: 6 }) };
  }

  /**
   * Confirms the app being set up with a code it shows, and answers the ten recovery codes (shown once,
   * kept hashed, replacing any earlier ones); undefined when the code is wrong or nothing is being set up.
   */
  async confirmTotp(accountId: string, code: string, now = Date.now()): Promise<string[] | undefined> {
    const pending = (
      await this.sql.query<{ secret_sealed: string }>(`SELECT secret_sealed FROM idp_totp WHERE account_id = $1 AND confirmed_at IS NULL`, [accountId])
    )[0];
    const input = readSecondFactor(code);
    if (!pending || input.kind !== 'totp') return undefined;
    const step = totpStep(this.open(pending.secret_sealed), input.code, now);
    if (step === undefined) return undefined;
    const confirmed = await this.sql.query(
      `UPDATE idp_totp SET confirmed_at = now(), last_step = $2 WHERE account_id = $1 AND confirmed_at IS NULL AND secret_sealed = $3 RETURNING account_id`,
      [accountId, step, pending.secret_sealed],
    );
    if (!confirmed.length) return undefined;
    return this.replaceRecoveryCodes(accountId);
  }

  private async replaceRecoveryCodes(accountId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.sql.query(
      `WITH gone AS (DELETE FROM idp_recovery_codes WHERE account_id = $1)
       INSERT INTO idp_recovery_codes (account_id, code_hash) SELECT $1, unnest($2::text[])`,
      [accountId, codes.map((c) => codeHash(c.replace('-', '')))],
    );
    return codes;
  }

  /** Ten new recovery codes in place of the old ones, while an app is set up; undefined otherwise. */
  async regenerateRecoveryCodes(accountId: string): Promise<string[] | undefined> {
    if (!(await this.status(accountId)).totp) return undefined;
    return this.replaceRecoveryCodes(accountId);
  }

  /** Removes every second factor of the account (its owner turned two-step off, or an administrator reset it); whether there was any. */
  async remove(accountId: string): Promise<boolean> {
    if (!isAccountId(accountId)) return false;
    const rows = await this.sql.query<{ n: number }>(
      `WITH totp AS (DELETE FROM idp_totp WHERE account_id = $1 RETURNING confirmed_at),
            codes AS (DELETE FROM idp_recovery_codes WHERE account_id = $1 RETURNING 1)
       SELECT (SELECT count(*) FROM totp WHERE confirmed_at IS NOT NULL)::int + (SELECT count(*) FROM codes)::int AS n`,
      [accountId],
    );
    return rows[0]!.n > 0;
  }

  /** Whether signing in to the account asks for a second step. */
  async required(accountId: string): Promise<boolean> {
    return (await this.status(accountId)).totp;
  }

  /**
   * Checks a second step: a code from the app, taken once (a code of the same or an earlier time step is
   * refused after it), or a recovery code, taken once. Which it was, or undefined when refused.
   */
  async verify(accountId: string, input: string, now = Date.now()): Promise<'otp' | 'recovery' | undefined> {
    const factor = readSecondFactor(input);
    if (factor.kind === 'totp') {
      const row = (
        await this.sql.query<{ secret_sealed: string }>(`SELECT secret_sealed FROM idp_totp WHERE account_id = $1 AND confirmed_at IS NOT NULL`, [accountId])
      )[0];
      if (!row) return undefined;
      const step = totpStep(this.open(row.secret_sealed), factor.code, now);
      if (step === undefined) return undefined;
      const taken = await this.sql.query(
        `UPDATE idp_totp SET last_step = $2 WHERE account_id = $1 AND confirmed_at IS NOT NULL AND (last_step IS NULL OR last_step < $2) RETURNING account_id`,
        [accountId, step],
      );
      return taken.length ? 'otp' : undefined;
    }
    if (factor.kind === 'recovery') {
      const used = await this.sql.query(
        `UPDATE idp_recovery_codes SET used_at = now() WHERE account_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING account_id`,
        [accountId, codeHash(factor.code)],
      );
      return used.length ? 'recovery' : undefined;
    }
    return undefined;
  }

  /** Remembers that the password was right for this sign-in; the code is asked for next. */
  async awaitSecondStep(interactionUid: string, accountId: string): Promise<void> {
    await this.sql.query(
      `INSERT INTO idp_second_steps (interaction_uid, account_id, expires_at) VALUES ($1, $2, now() + make_interval(mins => $3))
       ON CONFLICT (interaction_uid) DO UPDATE SET account_id = EXCLUDED.account_id, expires_at = EXCLUDED.expires_at, passed_at = NULL`,
      [interactionUid, accountId, SECOND_STEP_MINUTES],
    );
  }

  /** The account whose password was right for this sign-in, while its second step is awaited. */
  async awaited(interactionUid: string): Promise<string | undefined> {
    const rows = await this.sql.query<{ account_id: string }>(
      `SELECT account_id FROM idp_second_steps WHERE interaction_uid = $1 AND expires_at > now() AND passed_at IS NULL`,
      [interactionUid],
    );
    return rows[0]?.account_id;
  }

  /** The second step of this sign-in was given by setting up an app; the sign-in goes on once its recovery codes were shown. */
  async passSecondStep(interactionUid: string): Promise<void> {
    await this.sql.query(`UPDATE idp_second_steps SET passed_at = now() WHERE interaction_uid = $1`, [interactionUid]);
  }

  /** The account whose second step of this sign-in was passed while setting up an app, taken once. */
  async takePassed(interactionUid: string): Promise<string | undefined> {
    const rows = await this.sql.query<{ account_id: string }>(
      `DELETE FROM idp_second_steps WHERE interaction_uid = $1 AND expires_at > now() AND passed_at IS NOT NULL RETURNING account_id`,
      [interactionUid],
    );
    return rows[0]?.account_id;
  }

  async endSecondStep(interactionUid: string): Promise<void> {
    await this.sql.query(`DELETE FROM idp_second_steps WHERE interaction_uid = $1 OR expires_at < now()`, [interactionUid]);
  }
}
