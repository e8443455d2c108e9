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

export type SignInResult =
  | { ok: true; account: Account }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'locked'; until: Date };

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export class AccountStore {
  constructor(
    private readonly sql: SqlClient,
    private readonly lockout: LockoutPolicy,
  ) {}

  async findById(id: string): Promise<Account | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
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

  /** Checks a password; failures count towards a lock, and a locked account refuses even the right password. */
  async signIn(email: string, password: string): Promise<SignInResult> {
    const account = await this.findByEmail(email);
    if (!account) {
      await verifyPassword(password, await dummyHash());
      return { ok: false, reason: 'invalid' };
    }
    if (account.locked_until && account.locked_until > new Date()) return { ok: false, reason: 'locked', until: account.locked_until };
    if (await verifyPassword(password, account.password_hash)) {
      await this.sql.query('UPDATE idp_accounts SET failed_attempts = 0, locked_until = NULL WHERE id = $1', [account.id]);
      return { ok: true, account };
    }
    const [row] = await this.sql.query<{ locked_until: Date | null }>(
      `UPDATE idp_accounts SET
         failed_attempts = CASE WHEN failed_attempts + 1 >= $2 THEN 0 ELSE failed_attempts + 1 END,
         locked_until = CASE WHEN failed_attempts + 1 >= $2 THEN now() + make_interval(mins => $3) ELSE NULL END,
         updated_at = now()
       WHERE id = $1 RETURNING locked_until`,
      [account.id, this.lockout.failures, this.lockout.minutes],
    );
    return row?.locked_until ? { ok: false, reason: 'locked', until: row.locked_until } : { ok: false, reason: 'invalid' };
  }

  /** A single-use reset token valid for one hour; only its hash is stored. */
  async createReset(accountId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.sql.query(
      `INSERT INTO idp_password_resets (token_hash, account_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')`,
      [tokenHash(token), accountId],
    );
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

  /** Sets the new password and unlocks the account; false when the token is unknown, used or expired. */
  async completeReset(token: string, password: string): Promise<boolean> {
    const used = await this.sql.query<{ account_id: string }>(
      `UPDATE idp_password_resets SET used_at = now()
       WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING account_id`,
      [tokenHash(token)],
    );
    const accountId = used[0]?.account_id;
    if (!accountId) return false;
    await this.setPassword(accountId, password);
    return true;
  }

  async setPassword(accountId: string, password: string): Promise<void> {
    await this.sql.query(
      `UPDATE idp_accounts SET password_hash = $2, failed_attempts = 0, locked_until = NULL, updated_at = now() WHERE id = $1`,
      [accountId, await hashPassword(password)],
    );
  }
}
