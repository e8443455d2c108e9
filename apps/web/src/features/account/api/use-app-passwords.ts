import { isAppPassword, LIMITS, type TCreateApiTokenRequest } from '@cabinet/contracts';
import { useQuery } from '@tanstack/react-query';
import { tokensQuery } from './use-api-tokens.ts';

/** The caller's app passwords: their tokens with the dav scope, which sign in WebDAV clients. */
export function useAppPasswords() {
  return useQuery({ ...tokensQuery, select: (tokens) => tokens.filter((t) => isAppPassword(t.scopes)) });
}

/** An app password for a device or app: the dav scope alone, living as long as a token may (PRODUCT.md §9). */
export const appPasswordRequest = (name: string): TCreateApiTokenRequest => ({ name, scopes: ['dav'], expiresInDays: LIMITS.apiTokenMaxDays });
