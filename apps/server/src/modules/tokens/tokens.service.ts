import { ZCreateApiTokenRequest, type TApiToken, type TCreateApiTokenRequest, type TCreatedApiToken } from '@cabinet/contracts';
import type { Db } from '../../db/client.ts';
import type { ApiTokenRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { insertApiToken, listLiveApiTokens, revokeApiToken } from './tokens.repo.ts';

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

/** A new API token; the secret is returned once and only its hash is kept. */
export async function createApiToken(db: Db, userId: string, input: TCreateApiTokenRequest): Promise<TCreatedApiToken> {
  const request = ZCreateApiTokenRequest.parse(input);
  const token = `cab_${randomToken(32)}`;
  const row = await insertApiToken(db, {
    userId,
    name: request.name,
    tokenHash: sha256(token),
    scopes: [...new Set(request.scopes)],
    expiresAt: new Date(Date.now() + request.expiresInDays * 24 * 3600 * 1000),
  });
  return { ...presentApiToken(row), token };
}

export async function listApiTokens(db: Db, userId: string): Promise<TApiToken[]> {
  return (await listLiveApiTokens(db, userId)).map(presentApiToken);
}

export async function deleteApiToken(db: Db, userId: string, id: string): Promise<void> {
  if (!(await revokeApiToken(db, userId, id))) throw new AppError('not_found', 'No such API token.');
}
