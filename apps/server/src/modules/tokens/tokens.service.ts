import { ZCreateApiTokenRequest, type TApiToken, type TCreateApiTokenRequest, type TCreatedApiToken } from '@cabinet/contracts';
import { inTransaction, type Db } from '../../db/client.ts';
import { recordAccount, type AccountActor } from '../events/index.ts';
import type { ApiTokenRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { insertApiToken, listLiveApiTokens, revokeAllApiTokens, revokeApiToken, touchApiToken } from './tokens.repo.ts';

export function presentApiToken(row: ApiTokenRow): TApiToken {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes as TApiToken['scopes'],
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
  };
}

/** A new API token; the secret is returned once and only its hash is kept. `by`: who made it (null: Cabinet's command line). */
export async function createApiToken(db: Db, userId: string, input: TCreateApiTokenRequest, by: AccountActor | null = null): Promise<TCreatedApiToken> {
  const request = ZCreateApiTokenRequest.parse(input);
  const token = `cab_${randomToken(32)}`;
  const row = await inTransaction(db, async (tx) => {
    const created = await insertApiToken(tx, {
      userId,
      name: request.name,
      tokenHash: sha256(token),
      scopes: [...new Set(request.scopes)],
      expiresAt: new Date(Date.now() + request.expiresInDays * 24 * 3600 * 1000),
    });
    await recordAccount(tx, by, { userId, action: 'token.created', data: { tokenId: created.id, tokenName: created.name, scopes: created.scopes } });
    return created;
  });
  return { ...presentApiToken(row), token };
}

export async function listApiTokens(db: Db, userId: string): Promise<TApiToken[]> {
  return (await listLiveApiTokens(db, userId)).map(presentApiToken);
}

let revocations = 0;

/**
 * Notes that tokens are being revoked in this process: a WebDAV sign-in kept from before is not taken again (ADR 0075).
 * Noted as the revocation begins and again once its transaction has committed, so a sign-in read in between is not kept.
 */
export function noteRevocation(): void {
  revocations++;
}

/** How many revocations this process has noted: a kept sign-in counts as long as this has not moved since it was read. */
export const revocationsNoted = () => revocations;

export async function deleteApiToken(db: Db, userId: string, id: string, by: AccountActor | null = null): Promise<void> {
  noteRevocation();
  try {
    await inTransaction(db, async (tx) => {
      const revoked = await revokeApiToken(tx, userId, id);
      if (!revoked) throw new AppError('not_found', 'No such API token.');
      await recordAccount(tx, by, { userId, action: 'token.revoked', data: { tokenId: revoked.id, tokenName: revoked.name } });
    });
  } finally {
    noteRevocation();
  }
}

/** Revokes every live token of a person (their account deactivated by an administrator, `by` null: the instance's audit names them); how many. */
export async function revokeAllApiTokensOf(db: Db, userId: string): Promise<number> {
  // Within a caller's transaction (an account deactivated), the caller notes it again once it has committed.
  noteRevocation();
  try {
    return await inTransaction(db, async (tx) => {
      const revoked = await revokeAllApiTokens(tx, userId);
      for (const t of revoked) await recordAccount(tx, null, { userId, action: 'token.revoked', data: { tokenId: t.id, tokenName: t.name } });
      return revoked.length;
    });
  } finally {
    noteRevocation();
  }
}

/** How often a token's use is written to the activity record, at most. */
export const TOKEN_USE_RECORDED_EVERY_MS = 60 * 60_000;

/**
 * Notes that a token was used (its "last used"), and once an hour records it as `token.used`, in
 * one transaction: an update and, at most hourly, one insert.
 */
export async function noteTokenUse(db: Db, actor: AccountActor, userId: string, tokenId: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    if (await touchApiToken(tx, tokenId, TOKEN_USE_RECORDED_EVERY_MS)) await recordAccount(tx, actor, { userId, action: 'token.used', data: { tokenId } });
  });
}
