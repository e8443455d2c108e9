import { createHash, randomBytes } from 'node:crypto';
import { uuidv7 } from '@cabinet/contracts';
import { dummyHash, hashPassword, verifyPassword } from './password-hash.ts';
import type { SqlClient } from './sql.ts';

export interface Account {
  id: string;
  email: string;
  name: string;
  email_verified: boolean;
  password_hash: string;
  failed_attempts: number;
  locked_until: Date | null;
}

export interface LockoutPolicy {
  failures: number;
  minutes: number;
}

/** A refusal says nothing more: whether the address has an account, or is locked, is not told. */
export type SignInResult = { ok: true; account: Account; secondStep: boolean } | { ok: false };

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
const isAccountId = (id: string) => /^[0-9a-f-]{36}$/i.test(id);

/**
 * An account's address and whether it is confirmed, as its next ID token's `email` and `email_verified`
 * claims will say (the provider's findAccount reads the same row): for the host, on the same database,
 * to learn of a confirmation without waiting for a sign-in.
 */
export async function accountAddress(sql: SqlClient, accountId: string): Promise<{ email: string; verified: boolean } | undefined> {
  if (!isAccountId(accountId)) return undefined;
  const rows = await sql.query<{ email: string; email_verified: boolean }>('SELECT email, email_verified FROM idp_accounts WHERE id = $1', [accountId]);
  return rows[0] && { email: rows[0].email, verified: rows[0].email_verified };
}

/**
 * The end of a statement whose `changed` gives an account's id (its password just changed): everything the old password
 * opened with the provider (sessions, grants and the tokens issued under them) is deleted, and the id answered.
 */
const ENDS_WHAT_IT_OPENED = `grants AS (
         SELECT p.id FROM idp_payloads p JOIN changed ON p.payload->>'accountId' = changed.id WHERE p.kind = 'Grant'
       ), ended AS (
         DELETE FROM idp_payloads p USING changed
         WHERE p.grant_id IN (SELECT id FROM grants) OR (p.kind IN ('Session', 'Grant') AND p.payload->>'accountId' = changed.id)
       )
       SELECT id FROM changed`;

export class AccountStore {
  constructor(
    private readonly sql: SqlClient,
    private readonly lockout: LockoutPolicy,
  ) {}

  async findById(id: string): Promise<Account | undefined> {
    if (!isAccountId(id)) return undefined;
    return (await this.sql.query<Account>('SELECT * FROM idp_accounts WHERE id = $1', [id]))[0];
  }

  async findByEmail(email: string): Promise<Account | undefined> {
    return (await this.sql.query<Account>('SELECT * FROM idp_accounts WHERE lower(email) = lower($1)', [email.trim()]))[0];
  }

  /** Returns undefined when the email is taken. */
  async create(input: { email: string; name: string; password: string; emailVerified?: boolean }): Promise<Account | undefined> {
    const rows = await this.sql.query<Account>(
      `INSERT INTO idp_accounts (id, email, name, password_hash, email_verified) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING *`,
      [uuidv7(), input.email.trim(), input.name.trim(), await hashPassword(input.password), input.emailVerified ?? false],
    );
    return rows[0];
  }

  /**
   * Checks a password; failures count towards a lock, and a locked account refuses even the right
   * password. Every path checks a hash, so the time taken does not tell them apart either.
   */
  async signIn(email: string, password: string, secondStep?: (accountId: string) => Promise<boolean>): Promise<SignInResult> {
    const account = await this.findByEmail(email);
    const matches = await verifyPassword(password, account?.password_hash ?? (await dummyHash()));
    if (!account) return { ok: false };
    if (account.locked_until && account.locked_until > new Date()) return { ok: false };
    if (matches) {
      // With a second step still to come, earlier failures keep counting until it is passed.
      const needsSecondStep = (await secondStep?.(account.id)) ?? false;
      if (!needsSecondStep) await this.clearFailures(account.id);
      return { ok: true, account, secondStep: needsSecondStep };
    }
    await this.recordFailure(account.id);
    return { ok: false };
  }

  /** A wrong password or second-step code: enough of them in a row lock the account for a while. */
  async recordFailure(accountId: string): Promise<void> {
    await this.sql.query(
      `UPDATE idp_accounts SET
         failed_attempts = CASE WHEN failed_attempts + 1 >= $2 THEN 0 ELSE failed_attempts + 1 END,
         locked_until = CASE WHEN failed_attempts + 1 >= $2 THEN now() + make_interval(mins => $3) ELSE NULL END,
         updated_at = now()
       WHERE id = $1`,
      [accountId, this.lockout.failures, this.lockout.minutes],
    );
  }

  async isLocked(accountId: string): Promise<boolean> {
    const account = await this.findById(accountId);
    return !account || (!!account.locked_until && account.locked_until > new Date());
  }

  async clearFailures(accountId: string): Promise<void> {
    await this.sql.query('UPDATE idp_accounts SET failed_attempts = 0, locked_until = NULL WHERE id = $1', [accountId]);
  }

  /** A single-use link to confirm the account's address, valid for a day; only its hash is stored. */
  async createVerification(accountId: string, interactionUid: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.sql.query(
      `INSERT INTO idp_email_verifications (token_hash, account_id, interaction_uid, expires_at) VALUES ($1, $2, $3, now() + interval '1 day')`,
      [tokenHash(token), accountId, interactionUid],
    );
    return token;
  }

  async findVerification(token: string): Promise<{ account: Account; interactionUid: string } | undefined> {
    const rows = await this.sql.query<Account & { interaction_uid: string }>(
      `SELECT a.*, v.interaction_uid FROM idp_email_verifications v JOIN idp_accounts a ON a.id = v.account_id
       WHERE v.token_hash = $1 AND v.used_at IS NULL AND v.expires_at > now()`,
      [tokenHash(token)],
    );
    const row = rows[0];
    if (!row) return undefined;
    const { interaction_uid, ...account } = row;
    return { account, interactionUid: interaction_uid };
  }

  /** Marks the address verified, once; false when the link is unknown, used or expired. */
  async completeVerification(token: string): Promise<boolean> {
    const rows = await this.sql.query(
      `WITH used AS (
         UPDATE idp_email_verifications SET used_at = now()
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING account_id
       )
       UPDATE idp_accounts a SET email_verified = true, updated_at = now() FROM used WHERE a.id = used.account_id RETURNING a.id`,
      [tokenHash(token)],
    );
    return rows.length > 0;
  }

  /**
   * Sets a new password chosen while signed in (the current one checked by the caller) and ends everything the account
   * had opened with the provider (sessions, grants and the tokens issued under them), in one statement.
   */
  async changePassword(accountId: string, password: string): Promise<void> {
    await this.sql.query(
      `WITH changed AS (
         UPDATE idp_accounts SET password_hash = $2, updated_at = now() WHERE id = $1 RETURNING id::text AS id
       ), ${ENDS_WHAT_IT_OPENED}`,
      [accountId, await hashPassword(password)],
    );
  }

  /** A single-use reset token valid for one hour; only its hash is stored. */
  async createReset(accountId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.sql.query(`INSERT INTO idp_password_resets (token_hash, account_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')`, [
      tokenHash(token),
      accountId,
    ]);
    return token;
  }

  async findReset(token: string): Promise<Account | undefined> {
    const rows = await this.sql.query<Account>(
      `SELECT a.* FROM idp_password_resets r JOIN idp_accounts a ON a.id = r.account_id
       WHERE r.token_hash = $1 AND r.used_at IS NULL AND r.expires_at > now()`,
      [tokenHash(token)],
    );
    return rows[0];
  }

  /**
   * Sets the new password, unlocks the account, takes its address as confirmed (the link was mailed
   * there) and ends everything its old password opened with the provider (sessions, grants and the
   * tokens issued under them), in one statement. Answers the account's id, or undefined when the
   * token is unknown, used or expired.
   */
  async completeReset(token: string, password: string): Promise<string | undefined> {
    const rows = await this.sql.query<{ id: string }>(
      `WITH used AS (
         UPDATE idp_password_resets SET used_at = now()
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING account_id
       ), changed AS (
         UPDATE idp_accounts a SET password_hash = $2, email_verified = true, failed_attempts = 0, locked_until = NULL, updated_at = now()
         FROM used WHERE a.id = used.account_id RETURNING a.id::text AS id
       ), ${ENDS_WHAT_IT_OPENED}`,
      [tokenHash(token), await hashPassword(password)],
    );
    return rows[0]?.id;
  }
}
