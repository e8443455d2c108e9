import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { SqlClient } from './sql.ts';

/** oidc-provider's storage in PostgreSQL, so sign-ins survive restarts and span instances. */
export function sqlAdapter(sql: SqlClient): new (kind: string) => Adapter {
  return class SqlAdapter implements Adapter {
    constructor(private readonly kind: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      await sql.query(
        `INSERT INTO idp_payloads (kind, id, payload, grant_id, user_code, uid, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (kind, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
           user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
        [this.kind, id, JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresAt],
      );
    }

    private async findWhere(column: 'id' | 'user_code' | 'uid', value: string): Promise<AdapterPayload | undefined> {
      const rows = await sql.query<{ payload: AdapterPayload; consumed_at: Date | null }>(
        `SELECT payload, consumed_at FROM idp_payloads
         WHERE kind = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > now())`,
        [this.kind, value],
      );
      const row = rows[0];
      if (!row) return undefined;
      return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
    }

    find(id: string) {
      return this.findWhere('id', id);
    }
    findByUserCode(userCode: string) {
      return this.findWhere('user_code', userCode);
    }
    findByUid(uid: string) {
      return this.findWhere('uid', uid);
    }

    async consume(id: string): Promise<void> {
      await sql.query('UPDATE idp_payloads SET consumed_at = now() WHERE kind = $1 AND id = $2', [this.kind, id]);
    }

    async destroy(id: string): Promise<void> {
      await sql.query('DELETE FROM idp_payloads WHERE kind = $1 AND id = $2', [this.kind, id]);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await sql.query('DELETE FROM idp_payloads WHERE grant_id = $1', [grantId]);
    }
  };
}

/**
 * Ends the provider's own sessions of an account (an administrator signed the person out everywhere, or
 * deactivated them): their next sign-in asks for their password again. How many ended.
 */
export async function endAccountSessions(sql: SqlClient, accountId: string): Promise<number> {
  const rows = await sql.query<{ id: string }>(`DELETE FROM idp_payloads WHERE kind = 'Session' AND payload->>'accountId' = $1 RETURNING id`, [accountId]);
  return rows.length;
}
