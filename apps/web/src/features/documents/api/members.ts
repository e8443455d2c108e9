import type { TMember } from '@cabinet/contracts';
import { api } from '../../../lib/api-client.ts';

/** Members whose name or email contains `q`, for `@` mentions; none when the list cannot be read (a guest, offline). */
export async function findMembers(ws: string, q: string): Promise<TMember[]> {
  try {
    return (await api<{ items: TMember[] }>('GET', `/workspaces/${ws}/members?limit=8${q ? `&q=${encodeURIComponent(q)}` : ''}`)).items;
  } catch {
    return [];
  }
}
