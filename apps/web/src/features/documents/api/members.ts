import { workspacesApi, type TMember } from '@cabinet/contracts';
import { call } from '../../../lib/api-client.ts';

/** Members whose name or email contains `q`, for `@` mentions; none when the list cannot be read (a guest, offline). */
export async function findMembers(ws: string, q: string): Promise<TMember[]> {
  try {
    return (await call(workspacesApi.members, { params: { ws }, query: { limit: 8, q: q || undefined } })).items;
  } catch {
    return [];
  }
}
